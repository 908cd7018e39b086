//! The documented JSON output of each command, rendered into its man page.

/// roff text for the JSON OUTPUT section of a man page, if the page has one.
pub fn for_page(page: &str) -> Option<&'static str> {
    match page {
        "pushleft-controller-doctor" => Some(DOCTOR),
        "pushleft-controller-diagnose" => Some(DIAGNOSE),
        "pushleft-controller-fail-safely" => Some(FAIL_SAFELY),
        "pushleft-controller-fleet-list" => Some(FLEET_LIST),
        "pushleft-controller-stuck" => Some(STUCK),
        "pushleft-controller-wait" => Some(WAIT),
        _ => None,
    }
}

const DOCTOR: &str = "\
One document on stdout:
.PP
.nf
{
  \"target\": {\"host\": \"db1\", \"port\": 5432, \"database\": \"control\", \"user\": \"ops\"},
  \"sslmode\": \"verify\\-full\",
  \"checks\": [
    {\"name\": \"connection\", \"status\": \"ok\", \"detail\": \"connected to db1:5432/control as ops\"},
    ...
  ],
  \"ok\": true
}
.fi
.TP
\\fBtarget\\fR
Where the connection goes; never the password.
.TP
\\fBchecks\\fR
In this order, when they apply: settings, password file, connection, tls, server, recovery (primary or standby with replay lag), identity (session_user, current_user), role (with \\-\\-role), read privileges, write privileges, schema, triggers, session. \\fBstatus\\fR is ok, warn or fail; \\fBdetail\\fR says what was found and, when it is not ok, the next step.
.TP
\\fBok\\fR
false when any check failed; the exit status is then 4.
";

const DIAGNOSE: &str = "\
With \\-\\-output json, one document on stdout. Timestamps are RFC 3339; every age is computed from \\fBsnapshot.at\\fR. No \\fBlog\\fR key of a payload or output is ever read out of the database.
.TP
\\fBdeployment\\fR
{id, org_id, status, created_at, updated_at}
.TP
\\fBverdict\\fR
{path: \\(dqoperator_failed\\(dq | \\(dqteardown_requested\\(dq | \\(dqnone\\(dq, dispatched, evidence: [{kind: \\(dqjob\\(dq | \\(dqinstance\\(dq, id, detail}], findings: [{code, severity: \\(dqproblem\\(dq | \\(dqwarning\\(dq | \\(dqinfo\\(dq, message}], headline, reason, last_event {sequence, kind, occurred_at, age_seconds}, stuck_for_seconds, next_command}. Finding codes: stuck, in_flight, last_event, no_events, unknown_status, lease_orphaned, out_of_attempts, waiting_available_at, node_stale, node_offline, node_draining, node_unschedulable, teardown_waits_for_node, reservations_releasable, reservations_blocked, allocations_held, source_missing, source_unverified, artifact_missing, standby.
.TP
\\fBfingerprint\\fR
Of the state the decision depends on (status, last event, jobs, results, instances); give it to fail\\-safely \\-\\-expect\\-fingerprint.
.TP
\\fBsnapshot\\fR
{at, in_recovery, replay_lag_seconds, server_version, isolation, read_only}
.TP
\\fBevents\\fR, \\fBevents_total\\fR
Every event {sequence, id, kind, occurred_at, payload}, oldest first, and how many.
.TP
\\fBjobs\\fR
[{id, kind, status, target_node_id, attempt, max_attempts, available_at, lease_expires_at, last_error, has_lease_token, created_at, updated_at}]
.TP
\\fBresults\\fR
[{id, job_id, reported_at, kind, node_id, attempt, outcome, output}]
.TP
\\fBsource_snapshots\\fR, \\fBrelease_artifacts\\fR, \\fBinstances\\fR, \\fBallocations\\fR, \\fBroutes\\fR, \\fBnetwork_attachments\\fR
The runbook's rows, with its column names.
.TP
\\fBnodes\\fR
[{id, name, pool, status, schedulable, slots, last_seen_at, heartbeat_age_seconds, stale}]: every node a job, result, instance or reservation of the deployment involves.
";

const FAIL_SAFELY: &str = "\
With \\-\\-output json, one document on stdout:
.PP
.nf
{deployment_id, path, applied, replayed, dry_run, previous_status, new_status,
 event: {id, sequence, kind, payload, occurred_at}, idempotency_key,
 fingerprint, evidence, findings, next_command}
.fi
.TP
\\fBapplied\\fR
The state change is in effect (made by this run, or by the earlier run a replay found); false for a dry run.
.TP
\\fBreplayed\\fR
An earlier run with the same idempotency key made the change; this run wrote nothing and reports that run's event.
.TP
\\fBevent.payload\\fR
The runbook's keys (reason; operator for a teardown), idempotency_key, and audit {previous_status, os_user, session_user, current_user, host, tool}.
.PP
Refusals print nothing on stdout; the reason is on stderr and in the exit status.
";

const FLEET_LIST: &str = "\
With \\-\\-output json, one document on stdout:
.PP
.nf
{snapshot: {at, stale_after_seconds},
 nodes: [{id, name, pool, status, schedulable, last_seen_at,
          heartbeat_age_seconds, stale, slots, slots_used, instances}]}
.fi
.PP
slots_used counts reserved and active allocations; instances counts instances not removed whose active node it is. Sorted by pool, then name.
";

const STUCK: &str = "\
With \\-\\-output json, one document on stdout:
.PP
.nf
{snapshot: {at, stuck_after_seconds, grace_seconds},
 deployments_stuck: [{deployment_id, org_id, status, created_at, last_event_at,
                      last_event_kind, stuck_for_seconds, nodes, dispatched,
                      path, next_command}],
 leases_orphaned: [{job_id, deployment_id, org_id, deployment_status, kind,
                    attempt, max_attempts, node_id, node_name, node_status,
                    node_heartbeat_age_seconds, lease_expires_at,
                    expired_for_seconds, path, next_command}]}
.fi
";

const WAIT: &str = "\
With \\-\\-output json, one document on stdout when it ends (verified or timed out):
.PP
.nf
{deployment_id, status, verified, timed_out, elapsed_seconds,
 instances_total, instances_removed, allocations_held,
 pending: [...], blocked: [...], last_event}
.fi
.TP
\\fBblocked\\fR
Why it may never complete on its own: a dead node a teardown waits for, or a network attachment that keeps reservations.
";
