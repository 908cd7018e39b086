-- The second message of every read's flight (README, "Performance"), sent
-- with the transaction's first message (sql/session/begin.sql) before
-- either is answered. Answered by the same backend, still inside the
-- transaction the first message opened (its isolation level and access
-- mode), it proves that the connection carries that transaction from one
-- message to the next. A pooler in statement mode that hands each message
-- to whichever server connection is free answers it from another backend,
-- outside the transaction, while the connection stays open; pgbouncer in
-- statement mode instead closes the connection at the end of the first
-- message, and says why.
SELECT pg_catalog.pg_backend_pid()::text AS backend_pid,
       pg_catalog.current_setting('transaction_isolation') AS isolation,
       pg_catalog.current_setting('transaction_read_only') AS read_only
