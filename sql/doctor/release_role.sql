-- The role could be assumed: back to ourselves, keep going.
RESET ROLE;
RELEASE SAVEPOINT doctor_role
