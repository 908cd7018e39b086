-- The server's version, as text and as a number to compare.
SELECT current_setting('server_version') AS version,
       current_setting('server_version_num')::int AS number
