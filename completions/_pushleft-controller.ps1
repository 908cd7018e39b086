
Register-ArgumentCompleter -Native -CommandName pushleft-controller -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $prev = $env:COMPLETE;
    $env:COMPLETE = "powershell";

    $completions = @(switch ($command) {
        'pushleft-controller' {
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('diagnose', 'diagnose', [CompletionResultType]::ParameterValue, 'Every runbook query in one read-only snapshot, plus a verdict')
            [CompletionResult]::new('fail-safely', 'fail-safely', [CompletionResultType]::ParameterValue, 'Apply the runbook''s break-glass state change, decided under row locks')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'The fleet''s nodes and their capacity')
            [CompletionResult]::new('stuck', 'stuck', [CompletionResultType]::ParameterValue, 'Fleet-wide scan: stuck deployments and orphaned leases')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Follow a deployment until the runbook''s Verification holds')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'What operators did: every break-glass action with its audit')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'A throwaway local PostgreSQL with the reference schema and incident scenarios')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the connection, the server and the schema this tool expects')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pushleft-controller;diagnose' {
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'How many of the latest events the table shows (JSON has them all)')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'A node whose heartbeat is older than this is stale')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;fail-safely' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'A batch: the deployment ids in FILE (- for stdin), one per line, or the JSON of `stuck -o json`. One plan, one confirmation (type the number of deployments), then each in its own guarded transaction')
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'With --from: refuse a batch of more deployments than this')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'The ticket and the reason, stored verbatim in the event')
            [CompletionResult]::new('--plan-out', '--plan-out', [CompletionResultType]::ParameterName, 'Decide under the locks exactly as a dry run does, write nothing to the database, and write the plan to FILE (JSON): for review in the ticket, then `--apply FILE` by someone else')
            [CompletionResult]::new('--plan-ttl', '--plan-ttl', [CompletionResultType]::ParameterName, 'With --plan-out: how long the plan may be applied')
            [CompletionResult]::new('--apply', '--apply', [CompletionResultType]::ParameterName, 'Apply the plan in FILE (from --plan-out): only on the cluster and database it was made on, before it expires, each deployment held to the plan''s path and fingerprint')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'With --from or --apply: start at most this many deployments a second (N/s or N/m), so a big incident does not stampede the scheduler')
            [CompletionResult]::new('--expect-path', '--expect-path', [CompletionResultType]::ParameterName, 'Refuse unless the path decided under the locks is this one')
            [CompletionResult]::new('--expect-fingerprint', '--expect-fingerprint', [CompletionResultType]::ParameterName, 'Refuse unless the state still has this fingerprint (from diagnose)')
            [CompletionResult]::new('--idempotency-key', '--idempotency-key', [CompletionResultType]::ParameterName, 'Replay key; default: derived from the deployment and the reason')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Run the transaction as this role (SET LOCAL ROLE), e.g. the owner')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for another transaction''s row locks')
            [CompletionResult]::new('--reason-pattern', '--reason-pattern', [CompletionResultType]::ParameterName, 'A regular expression every --reason must match (a team''s shape for reasons, e.g. ''^[A-Z]+-[0-9]+ '')')
            [CompletionResult]::new('--allowed-triggers', '--allowed-triggers', [CompletionResultType]::ParameterName, 'Triggers and rules on deployments and deployment_events that this team vouches for, comma-separated: NAME, or TABLE.NAME for one table. Any other refuses fail-safely')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'A node whose heartbeat is older than this is stale')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'With --from: go on after a deployment is refused or fails')
            [CompletionResult]::new('--require-approval', '--require-approval', [CompletionResultType]::ParameterName, 'The two-person rule (PUSHLEFT_REQUIRE_APPROVAL=1): refuse to write without --apply of a plan made by someone else (another OS user or another session_user)')
            [CompletionResult]::new('--break-glass-alone', '--break-glass-alone', [CompletionResultType]::ParameterName, 'Under the two-person rule, write anyway with nobody else to approve: the audit and history mark it self_approved')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Decide and check everything, then roll back and print the plan')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required without a terminal)')
            [CompletionResult]::new('--even-if-not-stuck', '--even-if-not-stuck', [CompletionResultType]::ParameterName, 'Apply the change although the deployment is not stuck by the alerts'' definitions (e.g. running and healthy); the audit records it')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;fleet' {
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every node: pool, status, heartbeat age, slots used')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pushleft-controller;fleet;list' {
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'Only nodes of this pool')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only nodes with this status')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Refresh every INTERVAL (default 5s): in place on a terminal, with changes highlighted; one document per refresh on a pipe (JSON lines with --output json). Ctrl-C ends it')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'With --watch: stop after N refreshes')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'A node whose heartbeat is older than this is stale')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--stale', '--stale', [CompletionResultType]::ParameterName, 'Only nodes whose heartbeat is stale')
            [CompletionResult]::new('--all-services', '--all-services', [CompletionResultType]::ParameterName, 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;fleet;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every node: pool, status, heartbeat age, slots used')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pushleft-controller;fleet;help;list' {
            break
        }
        'pushleft-controller;fleet;help;help' {
            break
        }
        'pushleft-controller;stuck' {
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'In flight with no event for this long counts as stuck')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'A lease expired longer ago than this counts as orphaned')
            [CompletionResult]::new('--group-by', '--group-by', [CompletionResultType]::ParameterName, 'One line per node, pool, status, path or org: count, oldest, and the command that lists the group')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only deployments with this status')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'Only deployments of this org (id or a prefix of it)')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'Only deployments that wait on this node (by name)')
            [CompletionResult]::new('--pool', '--pool', [CompletionResultType]::ParameterName, 'Only deployments that wait on a node of this pool')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only deployments whose break-glass path is this one')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'The order of the rows [default: stuck-for, longest first]')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most this many rows of each list (JSON says how many were left out)')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Write the metrics (OpenMetrics) to FILE, replacing it atomically, instead of printing: for node_exporter''s textfile collector, from cron. A failed scan still writes pushleft_scan_success 0')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Refresh every INTERVAL (default 5s): in place on a terminal, with changes highlighted; one document per refresh on a pipe (JSON lines with --output json). Ctrl-C ends it')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'With --watch: stop after N refreshes')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 10 when something is found that an operator can act on: a stuck deployment, or an orphaned lease of a deployment a break-glass path applies to (a lease only the lease reclaimer can release is shown but does not count). For cron and monitors')
            [CompletionResult]::new('--all-services', '--all-services', [CompletionResultType]::ParameterName, 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;wait' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The deployment ids in FILE (- for stdin), one per line, or the JSON of `stuck -o json` or of `fail-safely --from FILE -o json` (its applied and replayed deployments): what a batch wrote')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up after this long (exit 6)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'How often to look (at least 100ms: every look is a transaction)')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'A node whose heartbeat is older than this is stale')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;history' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only actions at or after this time (a time, or how long ago: 12h)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only actions before this time (a time, or how long ago)')
            [CompletionResult]::new('--operator', '--operator', [CompletionResultType]::ParameterName, 'Only actions by this user (OS user, session_user or current_user)')
            [CompletionResult]::new('--reason-contains', '--reason-contains', [CompletionResultType]::ParameterName, 'Only actions whose reason contains this text (any case)')
            [CompletionResult]::new('--deployment', '--deployment', [CompletionResultType]::ParameterName, 'Only actions on this deployment (full id or unique prefix)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most this many, the newest')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--self-approved', '--self-approved', [CompletionResultType]::ParameterName, 'Only self-approved actions: a plan applied by its own requester, or a write with --break-glass-alone')
            [CompletionResult]::new('--all-services', '--all-services', [CompletionResultType]::ParameterName, 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;sandbox' {
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Leave the sandbox running when this command ends, and print how to stop it')
            [CompletionResult]::new('--simulate', '--simulate', [CompletionResultType]::ParameterName, 'Run the reference control plane in the background while the command runs: live nodes heartbeat, agents on them run their jobs, teardowns complete (or wait for a dead node), failed deployments are reaped')
            [CompletionResult]::new('--big-incident', '--big-incident', [CompletionResultType]::ParameterName, 'Also load a big incident: edge-07 died and stranded 40 more deployments (for `stuck --group-by node` and `fail-safely --from`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;doctor' {
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Also check that this role can be assumed (as fail-safely --role)')
            [CompletionResult]::new('--allowed-triggers', '--allowed-triggers', [CompletionResultType]::ParameterName, 'Triggers and rules on deployments and deployment_events that this team vouches for, comma-separated: NAME, or TABLE.NAME for one table. Any other refuses fail-safely')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables without their header line')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;help' {
            [CompletionResult]::new('diagnose', 'diagnose', [CompletionResultType]::ParameterValue, 'Every runbook query in one read-only snapshot, plus a verdict')
            [CompletionResult]::new('fail-safely', 'fail-safely', [CompletionResultType]::ParameterValue, 'Apply the runbook''s break-glass state change, decided under row locks')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'The fleet''s nodes and their capacity')
            [CompletionResult]::new('stuck', 'stuck', [CompletionResultType]::ParameterValue, 'Fleet-wide scan: stuck deployments and orphaned leases')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Follow a deployment until the runbook''s Verification holds')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'What operators did: every break-glass action with its audit')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'A throwaway local PostgreSQL with the reference schema and incident scenarios')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the connection, the server and the schema this tool expects')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pushleft-controller;help;diagnose' {
            break
        }
        'pushleft-controller;help;fail-safely' {
            break
        }
        'pushleft-controller;help;fleet' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Every node: pool, status, heartbeat age, slots used')
            break
        }
        'pushleft-controller;help;fleet;list' {
            break
        }
        'pushleft-controller;help;stuck' {
            break
        }
        'pushleft-controller;help;wait' {
            break
        }
        'pushleft-controller;help;history' {
            break
        }
        'pushleft-controller;help;sandbox' {
            break
        }
        'pushleft-controller;help;doctor' {
            break
        }
        'pushleft-controller;help;help' {
            break
        }
    })

    $results = Invoke-Expression @"
& pushleft-controller -- $args
"@;
    if ($null -eq $prev) {
        Remove-Item Env:\COMPLETE;
    } else {
        $env:COMPLETE = $prev;
    }
    $results | ForEach-Object {
        $split = $_.Split("`t");
        $cmd = $split[0];

        if ($split.Length -eq 2) {
            $help = $split[1];
        }
        else {
            $help = $split[0];
        }

        [System.Management.Automation.CompletionResult]::new($cmd, $cmd, 'ParameterValue', $help)
    }
};
        
