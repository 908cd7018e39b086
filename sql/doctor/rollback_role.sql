-- The role could not be assumed: undo the failed attempt.
ROLLBACK TO SAVEPOINT doctor_role
