-- The BEFORE row triggers on a table ($1: its name) for an operation ($2: the
-- bit of pg_trigger.tgtype, 8 DELETE, 16 UPDATE). tgtype bits: 1 row,
-- 2 before, 64 instead; tgenabled 'D' is disabled and 'R' fires only for
-- replication sessions.
SELECT t.tgname::text AS name, t.tgenabled::text AS enabled,
       p.oid::regprocedure::text AS function
FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
WHERE t.tgrelid = to_regclass($1) AND NOT t.tgisinternal
  AND t.tgtype::int4 & 2 <> 0 AND t.tgtype::int4 & 64 = 0
  AND t.tgtype::int4 & $2::int4 <> 0
ORDER BY t.tgname
