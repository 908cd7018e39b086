-- Where a standby replicates from, to name the primary in the refusal.
-- Only host and port are ever shown: the setting can hold a password.
SELECT current_setting('primary_conninfo', true) AS primary_conninfo
