-- Last, and only after a lock timeout: who holds the row locks fail-safely
-- waited for, once its lock_timeout ran out: the other sessions inside a
-- transaction that hold a row-level lock mode on the tables it locks
-- (RowShareLock: SELECT ... FOR UPDATE/SHARE; RowExclusiveLock: UPDATE,
-- DELETE, INSERT). Row locks themselves are not in pg_locks, and the wait
-- (pg_blocking_pids) is over; the table-level lock each of those statements
-- takes names the candidates. Longest open first.
-- $1: the schema of the control plane's tables (--schema).
SELECT a.pid,
       a.usename::text AS usename,
       a.application_name,
       host(a.client_addr) AS client_addr,
       a.state,
       floor(extract(epoch FROM now() - a.xact_start))::bigint AS xact_age_seconds
FROM pg_stat_activity a
WHERE a.pid <> pg_backend_pid()
  AND a.xact_start IS NOT NULL
  AND EXISTS (SELECT 1 FROM pg_locks l
              WHERE l.pid = a.pid
                AND l.locktype = 'relation'
                AND l.granted
                AND l.mode IN ('RowShareLock', 'RowExclusiveLock')
                AND l.relation IN (SELECT c.oid FROM pg_class c
                                   JOIN pg_namespace n ON n.oid = c.relnamespace
                                   WHERE n.nspname = $1
                                     AND c.relname IN ('deployments', 'jobs',
                                                       'application_instances')))
ORDER BY a.xact_start
LIMIT 3
