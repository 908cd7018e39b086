-- A setting ($1: its name): the raw value in force, as SHOW prints it, and
-- the session's own value (reset_val: what the startup options set, before
-- any SET LOCAL of the transaction).
SELECT setting, current_setting(name) AS shown, reset_val
FROM pg_settings
WHERE name = $1
