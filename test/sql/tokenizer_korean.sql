-- Tokenizer 'unicode' on Korean (manual pages of man-db, in Korean): tokens, and a real paragraph against a
-- lightly edited copy of it (two words changed) and against another page, under 'words' and 'unicode'.
SET extra_float_digits = 0;

SELECT ndd_tokens('각 설명서 페이지에는 페이지 안에 간단한 설명이 있습니다.') AS words,
       ndd_tokens('각 설명서 페이지에는 페이지 안에 간단한 설명이 있습니다.', 'unicode') AS unicode;

CREATE TEMP TABLE t (id int, body text);
INSERT INTO t VALUES
  (1, '이름 apropos - 설명서 페이지 이름과 설명을 검색합니다 개요 apropos [-dalv?V] [-e|-w|-r] [-s 목록] [-m 시스템[,...]] [-M 경로] [-L 로캘] [-C 파일] 검색어 ... 설명 각 설명서 페이지에는 페이지 안에 간단한 설명이 있습니다. apropos은 검색어 처럼 설명을 검색합니다. 검색어는 보통 (-r)를 썼을 때처럼 정규 표현식이 들어가거나, 와일드카드(-w) 문자가 들어가거나, 정확히 일치하는 검색어(-e)가 들어갑니다. 이 옵션을 활용하면서, 검색어에 따옴표로 둘러 쌓거나, 셸에서 특정 문자를 이스케이핑(\)하여 해석을 막아야 할 수도 있습니다. 표준 일치 규칙에서는 페이지 이름 또는 설명서의 단어 범위내에서 일치하는 방식으로 검색할 수 있습니다. apropos에서 검색한 데이터베이스는 mandb 프로그램에서 업데이트합니다. 설치 상태에 따라 주기적 크론 작업으로 실행핧 수도 있고, 새 설명서 페이지를 설치할 때마다 직접 실행해야 할 수도 있습니다. 옵션 -d, --debug 디버깅 정보를 출력합니다. -v, --verbose 경고 메시지를 자세하게 출력합니다. -r, --regex 각 검색어를 정규 표현'),
  (2, '이름 apropos - 안내서 페이지 이름과 설명을 조회합니다 개요 apropos [-dalv?V] [-e|-w|-r] [-s 목록] [-m 시스템[,...]] [-M 경로] [-L 로캘] [-C 파일] 검색어 ... 설명 각 설명서 페이지에는 페이지 안에 간단한 설명이 있습니다. apropos은 검색어 처럼 설명을 검색합니다. 검색어는 보통 (-r)를 썼을 때처럼 정규 표현식이 들어가거나, 와일드카드(-w) 문자가 들어가거나, 정확히 일치하는 검색어(-e)가 들어갑니다. 이 옵션을 활용하면서, 검색어에 따옴표로 둘러 쌓거나, 셸에서 특정 문자를 이스케이핑(\)하여 해석을 막아야 할 수도 있습니다. 표준 일치 규칙에서는 페이지 이름 또는 설명서의 단어 범위내에서 일치하는 방식으로 검색할 수 있습니다. apropos에서 검색한 데이터베이스는 mandb 프로그램에서 업데이트합니다. 설치 상태에 따라 주기적 크론 작업으로 실행핧 수도 있고, 새 설명서 페이지를 설치할 때마다 직접 실행해야 할 수도 있습니다. 옵션 -d, --debug 디버깅 정보를 출력합니다. -v, --verbose 경고 메시지를 자세하게 출력합니다. -r, --regex 각 검색어를 정규 표현'),
  (3, '이름 whatis - 설명서 페이지 설명 한 줄을 표시합니다 개요 whatis [-dlv?V] [-r|-w] [-s 목록] [-m 시스템[,...]] [-M 경로] [-L 로캘] [-C 파일] 이름 ... 설명 각 설명서 페이지에는 간단한 설명이 들어있습니다. whatis는 설명서 페이지 이름을 검색하며, 이름과 일치하는 설명서 페이지 설명 부분을 출력합니다. 이름에는 와일드카드(-w)가 들어가거나 정규 표현식-r)이 들어갑니다. 이 옵션을 활용하면, 이름을 따옴표로 둘러쌓거나 특수 문자를 이스케이핑(\) 처리하여 셸에서 해석하거나 실행하지 못하게 막아야 합니다. 색인 데이터베이스는 검색시 활용하며, mandb 프로그램에서 업데이트합니다. 설치 상태에 따라 크론 작업으로 주기적으로 실행하거나 새 설명서 페이지를 설치한 후 직접 실행해야 합니다. 상대 색인 데이터베이스에서 구세대 방식 whatis 데이터베이스를 만들려면, 다음 명령을 실행합니다: whatis -M 맨_페이지_경로 -w ''*'' | sort > 맨_페이지_경로/WHATIS 맨_페이지_경로는 /usr/man과 같은 설명서 페이지 계층입니다. 옵션 -d, --debug 디버깅 정보를 출력합니다. -v');

-- the comparison every script's test makes (test/sql/include/tokenizer_compare.sql)
\getenv abs_srcdir PG_ABS_SRCDIR
\set compare :abs_srcdir '/sql/include/tokenizer_compare.sql'
\i :compare
