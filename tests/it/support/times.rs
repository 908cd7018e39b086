//! Time shifting: a copy of the scenarios shows them as described however
//! long the suite has run (`Server::scenarios_loaded`).

use super::database::TestDb;

impl TestDb {
    /// Moves every timestamp of the copy `by` later (the protecting
    /// triggers silenced for it: this is the test's set-up, as the
    /// superuser), so its times relative to `now()` are the scenarios'.
    pub(super) fn shift_times(&self, by: std::time::Duration) {
        let ms = by.as_millis();
        self.client()
            .batch_execute(&format!(
                "SET session_replication_role = replica;
                 DO $$
                 DECLARE c record;
                 BEGIN
                   FOR c IN SELECT table_name, column_name FROM information_schema.columns
                            WHERE table_schema = 'public'
                              AND data_type = 'timestamp with time zone'
                   LOOP
                     EXECUTE format('UPDATE public.%I SET %I = %I + interval ''{ms} milliseconds''',
                                    c.table_name, c.column_name, c.column_name);
                   END LOOP;
                 END $$;"
            ))
            .expect("shifting the scenarios' times to now");
    }
}
