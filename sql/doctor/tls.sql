-- TLS in force on this session, as the server sees it.
SELECT coalesce(s.ssl, false) AS ssl, coalesce(s.version, '') AS version,
       coalesce(s.cipher, '') AS cipher
FROM (SELECT 1) one
LEFT JOIN pg_stat_ssl s ON s.pid = pg_backend_pid()
