-- Tokenizer 'unicode' on Chinese (zh_CN manual pages of manpages-zh): tokens, and a real paragraph against a
-- lightly edited copy of it (two words changed) and against another page, under 'words' and 'unicode'.
SET extra_float_digits = 0;

SELECT ndd_tokens('我们今天去北京大学参观。北京大学是中国最古老的大学之一。') AS words,
       ndd_tokens('我们今天去北京大学参观。北京大学是中国最古老的大学之一。', 'unicode') AS unicode;

CREATE TEMP TABLE t (id int, body text);
INSERT INTO t VALUES
  (1, '名称 cut - 从文件的每一行中移除某些段 概述 cut 选项... [文件列表]... 描述 从每个输入文件中输出指定部分到标准输出。 如果没有指定文件，或者指定文件为“-”，则从标准输入读取。 必选参数对长短选项同时适用。 -b, --bytes=列表 只选中指定的这些字节 -c, --characters=列表 只选中指定的这些字符 -d, --delimiter=分界符 使用指定分界符代替制表符作为区域分界 -f, --fields=列表 只选中指定的这些域；并打印所有不包含分界符的行，除非同时指定了 -s 选项 -n （被忽略的选项） --complement 补全选中的字节、字符或域 -s, --only-delimited do not print lines not containing delimiters --output-delimiter=STRING use STRING as the output delimiter the default is to use the input delimiter -z, --zero-terminated 以 NUL 空字符而非换行符作为行分隔符 --help 显示此帮助信息并退出 --version 显示版本信息并退出 Use one, and only one of -b, -c or -f. Each LIS'),
  (2, '名称 cut - 从文件的每一行中移除某些段 概述 cut 选项... [文件列表]... 描述 从每个输出文件中输出指定部分到标准输出。 如果没有指定文件，或者指定文件为“-”，则从标准输入读取。 必选参数对长短选项同时适用。 -b, --bytes=列表 只选中指定的这些字节 -c, --characters=列表 只选中指定的这些字符 -d, --delimiter=分隔符 使用指定分界符代替制表符作为区域分界 -f, --fields=列表 只选中指定的这些域；并打印所有不包含分界符的行，除非同时指定了 -s 选项 -n （被忽略的选项） --complement 补全选中的字节、字符或域 -s, --only-delimited do not print lines not containing delimiters --output-delimiter=STRING use STRING as the output delimiter the default is to use the input delimiter -z, --zero-terminated 以 NUL 空字符而非换行符作为行分隔符 --help 显示此帮助信息并退出 --version 显示版本信息并退出 Use one, and only one of -b, -c or -f. Each LIS'),
  (3, 'NAME(名称) col - 过滤掉输入中的反向换行符 SYNOPSIS(总览) col [ -bfx ] [ -l num ] DESCRIPTION(描述) col 过滤掉反向(以及半反向)换行符(LF: line feed or NL: new line), 这样输出按正常顺序，即只包括正向和半正向换行符, 而且在可能的地方使用tab替换白空格.这对 nroff(1) 和 tbl(1) 的输出处理很有用处. col 从标准输出读入,并写出到标准输出上. 选项如下: -b 不输出任何退格符,在每列的位置上只打印最后写的那个字符. -f 允许正向半换行符(``fine''''模式). 通常,处于半行分界线上的字符打印在下一行. -x 输出多个空格以替换tab. -l num 在内存中至少缓冲 num 行. 默认情况下,缓冲128行. col 所能理解的用于回车操作的控制序列以及它们的十进制值都列在下面的表中: ESC-7 反向换行符(escape后接7) ESC-8 反向半换行符(escape后接8) ESC-9 正向半换行符(escape后接9) backspace 反向移动一列(8);在第一列则忽略. carriage return (13) newline 正向换行符(10);同时执行回车(carriage return)操作 shift in 转到正常字符集(15) shif');

-- the comparison every script's test makes (test/sql/include/tokenizer_compare.sql)
\getenv abs_srcdir PG_ABS_SRCDIR
\set compare :abs_srcdir '/sql/include/tokenizer_compare.sql'
\i :compare
