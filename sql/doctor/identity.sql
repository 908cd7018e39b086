-- Who this session is, and where.
SELECT session_user::text AS session_user, current_user::text AS current_user,
       current_database()::text AS database
