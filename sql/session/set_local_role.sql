-- SET LOCAL ROLE, with the role name as a bound parameter ($1): no
-- identifier is ever spliced into SQL. It ends with the transaction (or
-- the savepoint it was set in).
SELECT set_config('role', $1, true)
