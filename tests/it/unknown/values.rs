//! A status, kind or outcome the model does not know, in a job, an
//! instance, an allocation, a node, the deployment or an agent result:
//! fail-safely refuses naming it, diagnose decides no path.

use super::*;

/// Each unknown value, in a database of its own: (deployment, the
/// UPDATE, the row, the value).
fn unknown_cases(relax: &str, cases: &[(u8, String, &str, &str)]) {
    for (n, update, row, value) in cases {
        let db = &TestDb::scenarios();
        sql(db, relax);
        sql(db, update);
        let deployment = scenario(*n);
        let says = [*row, *value, "which pushleft-controller does not know"];
        refused_both_ways(db, &deployment, &says);
        diagnosed_undecidable(db, &deployment, "unknown_value", row);
    }
}

#[test]
fn unknown_job_status_and_kind_refuse() {
    let relax = "ALTER TABLE jobs DROP CONSTRAINT jobs_status_check;
                 ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;";
    for (column, value) in [("status", "blocked"), ("kind", "migrate")] {
        let db = TestDb::scenarios();
        sql(&db, relax);
        sql(
            &db,
            &format!("UPDATE jobs SET {column} = '{value}' WHERE id = '{JOB_1}'"),
        );
        let says = [
            "jobs row",
            JOB_1,
            value,
            "cannot tell whether it was dispatched",
        ];
        refused_both_ways(&db, &scenario(1), &says);
        let doc = diagnosed_undecidable(&db, &scenario(1), "unknown_value", JOB_1);
        assert_eq!(doc["jobs"][0][column], value);
    }
}

#[test]
fn unknown_instance_allocation_node_deployment_and_outcome_refuse() {
    let instance = "c1000041-0000-4000-8000-000000000041";
    let allocation = "c2000041-0000-4000-8000-000000000041";
    let node = "a0000003-0000-4000-8000-000000000003";
    let result = "b1000031-0000-4000-8000-000000000031";
    let deployment = "d0000001-0000-4000-8000-000000000001";
    unknown_cases(
        "ALTER TABLE application_instances DROP CONSTRAINT application_instances_status_check;
         ALTER TABLE fleet_allocations DROP CONSTRAINT fleet_allocations_status_check;
         ALTER TABLE fleet_nodes DROP CONSTRAINT fleet_nodes_status_check;
         ALTER TABLE deployments DROP CONSTRAINT deployments_status_check;
         ALTER TABLE agent_job_results DROP CONSTRAINT agent_job_results_outcome_check;",
        &[
            (
                4,
                format!(
                    "UPDATE application_instances SET status = 'migrating' WHERE id = '{instance}'"
                ),
                instance,
                "migrating",
            ),
            (
                4,
                format!(
                    "UPDATE fleet_allocations SET status = 'pending' WHERE id = '{allocation}'"
                ),
                allocation,
                "pending",
            ),
            (
                2,
                format!("UPDATE fleet_nodes SET status = 'maintenance' WHERE id = '{node}'"),
                node,
                "maintenance",
            ),
            (
                3,
                format!(
                    "ALTER TABLE agent_job_results DISABLE TRIGGER agent_job_results_refuse_update;
                     UPDATE agent_job_results SET outcome = 'unknown' WHERE id = '{result}';
                     ALTER TABLE agent_job_results ENABLE TRIGGER agent_job_results_refuse_update;"
                ),
                result,
                "unknown",
            ),
        ],
    );
    // The deployment's own status: refused as unknown (its finding is the
    // existing unknown_status).
    let db = TestDb::scenarios();
    sql(
        &db,
        &format!(
            "ALTER TABLE deployments DROP CONSTRAINT deployments_status_check;
             UPDATE deployments SET status = 'paused' WHERE id = '{deployment}'"
        ),
    );
    refused_both_ways(
        &db,
        &scenario(1),
        &["deployments row", deployment, "`paused`"],
    );
    diagnosed_undecidable(&db, &scenario(1), "unknown_status", "paused");
}
