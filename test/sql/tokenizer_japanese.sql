-- Tokenizer 'unicode' on Japanese (manual pages of manpages-ja): tokens, and a real paragraph against a
-- lightly edited copy of it (two words changed) and against another page, under 'words' and 'unicode'.
SET extra_float_digits = 0;

SELECT ndd_tokens('東京は日本の首都です。コンピューターのディレクトリを一覧表示します。') AS words,
       ndd_tokens('東京は日本の首都です。コンピューターのディレクトリを一覧表示します。', 'unicode') AS unicode;

CREATE TEMP TABLE t (id int, body text);
INSERT INTO t VALUES
  (1, '名称 bc - 任意精度の計算言語 書式 bc [ -hlwsqv ] [long-options] [ file ... ] バージョン このマニュアルは GNU bc version 1.06 について記述してあります。 解説 bc は、任意の精度の数値を扱う事ができ、プログラミング言語 C の文法に よく似た形の入力を対話的に実行する言語です。 コマンドラインのオプションの指定により、標準数学ライブラリを使用することも できます。これを指定した場合は、どのファイルを処理するよりも前に 数学ライブラリが定義されます。 bc は動作を開始するとまず最初にコマンドラインで指定したファイルを 順に処理します。すべてのファイルを処理した後は、bc は 標準入力からの読み込みを行います。すべてのコードは、それが読み込ま れた時点で実行されていきます。(もし、ファイル中にプロセッサを止める コマンドが含まれていた場合は、標準入力からの読み込みは行われません。) 本バージョンの bc は、伝統的な bc の実装および POSIX のドラフト規格よりも拡張されています。コマンドラインオプションにより、 これらの拡張に対して警告を表示したり拒絶したりすることが可能です。 本ドキュメントでは、このプロセッサが受理する言語について説明します。 拡張機能についてはその旨明記します。 オプション -h,'),
  (2, '名称 bc - 随意精度の計算言葉 書式 bc [ -hlwsqv ] [long-options] [ file ... ] バージョン このマニュアルは GNU bc version 1.06 について記述してあります。 解説 bc は、任意の精度の数値を扱う事ができ、プログラミング言語 C の文法に よく似た形の入力を対話的に実行する言語です。 コマンドラインのオプションの指定により、標準数学ライブラリを使用することも できます。これを指定した場合は、どのファイルを処理するよりも前に 数学ライブラリが定義されます。 bc は動作を開始するとまず最初にコマンドラインで指定したファイルを 順に処理します。すべてのファイルを処理した後は、bc は 標準入力からの読み込みを行います。すべてのコードは、それが読み込ま れた時点で実行されていきます。(もし、ファイル中にプロセッサを止める コマンドが含まれていた場合は、標準入力からの読み込みは行われません。) 本バージョンの bc は、伝統的な bc の実装および POSIX のドラフト規格よりも拡張されています。コマンドラインオプションにより、 これらの拡張に対して警告を表示したり拒絶したりすることが可能です。 本ドキュメントでは、このプロセッサが受理する言語について説明します。 拡張機能についてはその旨明記します。 オプション -h,'),
  (3, '名前 tar - アーカイブユーティリティ 書式 伝統的な使用法 tar {A|c|d|r|t|u|x}[GnSkUWOmpsMBiajJzZhPlRvwo] [ARG...] UNIX スタイルの使用法 tar -A [OPTIONS] ARCHIVE ARCHIVE tar -c [-f ARCHIVE] [OPTIONS] [FILE...] tar -d [-f ARCHIVE] [OPTIONS] [FILE...] tar -t [-f ARCHIVE] [OPTIONS] [MEMBER...] tar -r [-f ARCHIVE] [OPTIONS] [FILE...] tar -u [-f ARCHIVE] [OPTIONS] [FILE...] tar -x [-f ARCHIVE] [OPTIONS] [MEMBER...] GNU スタイルの使用法 tar {--catenate|--concatenate} [OPTIONS] ARCHIVE ARCHIVE tar --create [--file ARCHIVE] [OPTIONS] [FILE...] tar {--diff|--compare} [--file ARCHIVE] [OPTIONS] [FILE...] tar --delete [--file ARCHIVE] [OPTIONS] ');

-- the comparison every script's test makes (test/sql/include/tokenizer_compare.sql)
\getenv abs_srcdir PG_ABS_SRCDIR
\set compare :abs_srcdir '/sql/include/tokenizer_compare.sql'
\i :compare
