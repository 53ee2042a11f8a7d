-- Tokenizer 'unicode' on Thai (the Thai messages of dpkg): tokens, and a real paragraph against a
-- lightly edited copy of it (two words changed) and against another page, under 'words' and 'unicode'.
SET extra_float_digits = 0;

SELECT ndd_tokens('ภาษาไทยง่ายนิดเดียว แพกเกจนี้ยังไม่ได้ติดตั้ง') AS words,
       ndd_tokens('ภาษาไทยง่ายนิดเดียว แพกเกจนี้ยังไม่ได้ติดตั้ง', 'unicode') AS unicode;

CREATE TEMP TABLE t (id int, body text);
INSERT INTO t VALUES
  (1, 'ตัวเลือกของการตรวจสอบยืนยันของ %s - ตรวจสอบยืนยันว่ามีการรองรับความสามารถต่างๆ หรือไม่:  %s เพิ่มความสามารถให้กับ %s %s ไม่ได้ติดตั้งอย่างถูกต้อง จะละเลยแพกเกจที่ต้องใช้แพกเกจดังกล่าว %s ต้องใช้ %s ขณะติดตั้ง โพรเซสย่อย %s ล้มเหลวด้วยรหัสสถานะ %d โพรเซสย่อย %s จบการทำงานโดยคืนค่าสถานะข้อผิดพลาด %d โพรเซสย่อย %s ถูกขัดจังหวะ โพรเซสย่อย %s ถูกฆ่าด้วยสัญญาณ (%s)%s %s%s/%s ได้ถูกเปลี่ยนแปลง (ด้วยการสั่งเองหรือผ่านสคริปต์) จะเปลี่ยนสู่การปรับแบบสั่งเองเท่านั้น ลิงก์ %s%s/%s เป็นลิงก์ขาด จะปรับให้เป็นตัวเลือกที่ดีที่สุด %s: ไม่สามารถสร้างบริบทของการบีบอัดของ zstd ได้ %s: ไม่สามารถสร้างบริบทของการคลา'),
  (2, 'ตัวเลือกของการตรวจสอบยืนยันของ %s - ตรวจสอบยืนยันว่ามีการรองรับความสามารถต่างๆ หรือไม่:  %s เพิ่มความสามารถให้กับ %s %s ไม่ได้ลงโปรแกรมอย่างถูกต้อง จะละเลยแพกเกจที่ต้องใช้แพกเกจดังกล่าว %s ต้องใช้ %s ขณะติดตั้ง กระบวนการย่อย %s ล้มเหลวด้วยรหัสสถานะ %d โพรเซสย่อย %s จบการทำงานโดยคืนค่าสถานะข้อผิดพลาด %d โพรเซสย่อย %s ถูกขัดจังหวะ โพรเซสย่อย %s ถูกฆ่าด้วยสัญญาณ (%s)%s %s%s/%s ได้ถูกเปลี่ยนแปลง (ด้วยการสั่งเองหรือผ่านสคริปต์) จะเปลี่ยนสู่การปรับแบบสั่งเองเท่านั้น ลิงก์ %s%s/%s เป็นลิงก์ขาด จะปรับให้เป็นตัวเลือกที่ดีที่สุด %s: ไม่สามารถสร้างบริบทของการบีบอัดของ zstd ได้ %s: ไม่สามารถสร้างบริบทของการคลา'),
  (3, '--%s ต้องการชื่อแพกเกจที่ถูกต้อง แต่ ''%.250s'' ไม่ใช่: %s --%s ต้องการอาร์กิวเมนต์เป็นแฟ้มแพกเกจอย่างน้อยหนึ่งแฟ้ม --%s ต้องการอาร์กิวเมนต์ที่เป็นชื่อแพกเกจอย่างน้อยหนึ่งตัว --%s ต้องการอาร์กิวเมนต์สี่ตัว --%s ใช้ได้กับ --%s เท่านั้น ตัวเลือก --%s ไม่รับค่า ตัวเลือก --%s ต้องระบุค่าด้วย --%s ต้องมีอาร์กิวเมนต์เป็นเลขฐานแปดค่าบวก --%s ต้องการอาร์กิวเมนต์ที่เป็นแฟ้มส่วนย่อยตั้งแต่หนึ่งรายการขึ้นไป --%s ต้องการอาร์กิวเมนต์เป็นชื่อแฟ้ม Packages ไม่เกินหนึ่งรายการ --%s ต้องการอาร์กิวเมนต์ไม่เกินสองตัว --%s รับอาร์กิวเมนต์ไม่เกินสองตัว (.deb และไดเรกทอรี) --%s รับอาร์กิวเมนต์ตัวเดียว --%s ต้องการอาร์');

SELECT tok, cardinality(ndd_tokens(body, tok)) AS tokens, id
FROM t, unnest(ARRAY['words', 'unicode']) AS tok ORDER BY tok, id;

-- the copy: unicode sees it as the near-duplicate it is; the other page stays apart
SELECT tok, round(jaccard(a.body, b.body, tokenizer => tok)::numeric, 3) AS j4,
       round(containment(a.body, b.body, 2, tok)::numeric, 3) AS c2,
       word_edit_distance(a.body, b.body, tokenizer => tok) AS edits,
       simhash(a.body, tok) <~> simhash(b.body, tok) AS words_bits,
       b.id AS other
FROM t a JOIN t b ON a.id = 1 AND b.id > 1, unnest(ARRAY['words', 'unicode']) AS tok
ORDER BY tok, b.id;

-- the exact pairs at J >= 0.8, with the tokenizer given by name
SELECT 'words' AS tok, * FROM ndd_jaccard_pairs('SELECT id, body FROM t', 0.8);
SELECT 'unicode' AS tok, a, b, round(jaccard::numeric, 3) FROM ndd_jaccard_pairs('SELECT id, body FROM t', 0.8, tokenizer => 'unicode');
SELECT 'unicode' AS tok, a, b, round(containment::numeric, 3) FROM ndd_containment_pairs('SELECT id, body FROM t', 0.8, tokenizer => 'unicode') ORDER BY a, b;
-- the same answer from stored sketches (the third column): the sketch must use the same tokenizer
SELECT a, b FROM ndd_jaccard_pairs('SELECT id, body, shingle_minhash(body, 4, 128, ''unicode'') FROM t', 0.8, 4, 128, 'unicode');
