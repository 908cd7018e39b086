-- Step 4: who writes the event, for its audit (step 10): the login role and
-- the role in effect (after --role's SET LOCAL ROLE).
SELECT session_user::text AS session_user, current_user::text AS current_user
