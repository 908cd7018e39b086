-- SET LOCAL lock_timeout, with the value as a bound parameter ($1, e.g.
-- '5000ms'): it ends with the transaction.
SELECT set_config('lock_timeout', $1, true)
