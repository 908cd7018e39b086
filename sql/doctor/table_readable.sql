-- Whether a table ($1) exists and the current user may read it.
SELECT to_regclass($1) IS NOT NULL AS present,
       to_regclass($1) IS NOT NULL
           AND has_table_privilege(to_regclass($1), 'SELECT') AS readable
