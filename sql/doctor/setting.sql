-- A setting in force ($1: its name): the raw value and as SHOW prints it.
SELECT setting, current_setting(name) AS shown
FROM pg_settings
WHERE name = $1
