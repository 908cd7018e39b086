-- The columns of a table ($1: its oid) with their types as SQL spells them.
SELECT attname::text AS name, format_type(atttypid, atttypmod) AS type
FROM pg_attribute
WHERE attrelid = $1::int8::oid AND attnum > 0 AND NOT attisdropped
