# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_pushleft_controller_global_optspecs
    string join \n database-url= o/output= color= no-headers show-sql service= statement-timeout= connect-timeout= idle-in-transaction-timeout= schema= h/help V/version
end

function __fish_pushleft_controller_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_pushleft_controller_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_pushleft_controller_using_subcommand
    set -l cmd (__fish_pushleft_controller_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "diagnose" -d 'Every runbook query in one read-only snapshot, plus a verdict'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "fail-safely" -d 'Apply the runbook\'s break-glass state change, decided under row locks'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "fleet" -d 'The fleet\'s nodes and their capacity'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "stuck" -d 'Fleet-wide scan: stuck deployments and orphaned leases'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "wait" -d 'Follow a deployment until the runbook\'s Verification holds'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "history" -d 'What operators did: every break-glass action with its audit'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "sandbox" -d 'A throwaway local PostgreSQL with the reference schema and incident scenarios'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "doctor" -d 'Check the connection, the server and the schema this tool expects'
complete -c pushleft-controller -n "__fish_pushleft_controller_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l events -d 'How many of the latest events the table shows (JSON has them all)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l stale-after -d 'A node whose heartbeat is older than this is stale' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand diagnose" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l from -d 'A batch: the deployment ids in FILE (- for stdin), one per line, or the JSON of `stuck -o json`. One plan, one confirmation (type the number of deployments), then each in its own guarded transaction' -r -F
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l max -d 'With --from: refuse a batch of more deployments than this' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l reason -d 'The ticket and the reason, stored verbatim in the event' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l expect-path -d 'Refuse unless the path decided under the locks is this one' -r -f -a "operator_failed\t''
teardown_requested\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l expect-fingerprint -d 'Refuse unless the state still has this fingerprint (from diagnose)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l idempotency-key -d 'Replay key; default: derived from the deployment and the reason' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l role -d 'Run the transaction as this role (SET LOCAL ROLE), e.g. the owner' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l lock-timeout -d 'How long to wait for another transaction\'s row locks' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l reason-pattern -d 'A regular expression every --reason must match (a team\'s shape for reasons, e.g. \'^[A-Z]+-[0-9]+ \')' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l allowed-triggers -d 'Triggers and rules on deployments and deployment_events that this team vouches for, comma-separated: NAME, or TABLE.NAME for one table. Any other refuses fail-safely' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l stale-after -d 'A node whose heartbeat is older than this is stale' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l keep-going -d 'With --from: go on after a deployment is refused or fails'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l dry-run -d 'Decide and check everything, then roll back and print the plan'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -s y -l yes -d 'Do not ask for confirmation (required without a terminal)'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l even-if-not-stuck -d 'Apply the change although the deployment is not stuck by the alerts\' definitions (e.g. running and healthy); the audit records it'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fail-safely" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'Every node: pool, status, heartbeat age, slots used'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l pool -d 'Only nodes of this pool' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l status -d 'Only nodes with this status' -r -f -a "online\t''
draining\t''
offline\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l watch -d 'Refresh every INTERVAL (default 5s): in place on a terminal, with changes highlighted; one document per refresh on a pipe (JSON lines with --output json). Ctrl-C ends it' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l count -d 'With --watch: stop after N refreshes' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l stale-after -d 'A node whose heartbeat is older than this is stale' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l stale -d 'Only nodes whose heartbeat is stale'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l all-services -d 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "list" -d 'Every node: pool, status, heartbeat age, slots used'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand fleet; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l for -d 'In flight with no event for this long counts as stuck' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l grace -d 'A lease expired longer ago than this counts as orphaned' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l group-by -d 'One line per node, pool, status, path or org: count, oldest, and the command that lists the group' -r -f -a "node\t''
pool\t''
status\t''
path\t''
org\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l status -d 'Only deployments with this status' -r -f -a "queued\t''
building\t''
deploying\t''
running\t''
failed\t''
teardown_queued\t''
destroyed\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l org -d 'Only deployments of this org (id or a prefix of it)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l node -d 'Only deployments that wait on this node (by name)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l pool -d 'Only deployments that wait on a node of this pool' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l path -d 'Only deployments whose break-glass path is this one' -r -f -a "operator_failed\t''
teardown_requested\t''
none\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l sort -d 'The order of the rows [default: stuck-for, longest first]' -r -f -a "stuck-for\t''
status\t''
org\t''
node\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l limit -d 'Show at most this many rows of each list (JSON says how many were left out)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l write -d 'Write the metrics (OpenMetrics) to FILE, replacing it atomically, instead of printing: for node_exporter\'s textfile collector, from cron. A failed scan still writes pushleft_scan_success 0' -r -F
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l watch -d 'Refresh every INTERVAL (default 5s): in place on a terminal, with changes highlighted; one document per refresh on a pipe (JSON lines with --output json). Ctrl-C ends it' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l count -d 'With --watch: stop after N refreshes' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l exit-code -d 'Exit 10 when something is found that an operator can act on: a stuck deployment, or an orphaned lease of a deployment a break-glass path applies to (a lease only the lease reclaimer can release is shown but does not count). For cron and monitors'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l all-services -d 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand stuck" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l timeout -d 'Give up after this long (exit 6)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l interval -d 'How often to look (at least 100ms: every look is a transaction)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l stale-after -d 'A node whose heartbeat is older than this is stale' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand wait" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l since -d 'Only actions at or after this time (a time, or how long ago: 12h)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l until -d 'Only actions before this time (a time, or how long ago)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l operator -d 'Only actions by this user (OS user, session_user or current_user)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l reason-contains -d 'Only actions whose reason contains this text (any case)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l deployment -d 'Only actions on this deployment (full id or unique prefix)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l limit -d 'Show at most this many, the newest' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l all-services -d 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand history" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l keep -d 'Leave the sandbox running when this command ends, and print how to stop it'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l simulate -d 'Run the reference control plane in the background while the command runs: live nodes heartbeat, agents on them run their jobs, teardowns complete (or wait for a dead node), failed deployments are reaped'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l big-incident -d 'Also load a big incident: edge-07 died and stranded 40 more deployments (for `stuck --group-by node` and `fail-safely --from`)'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand sandbox" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l role -d 'Also check that this role can be assumed (as fail-safely --role)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l allowed-triggers -d 'Triggers and rules on deployments and deployment_events that this team vouches for, comma-separated: NAME, or TABLE.NAME for one table. Any other refuses fail-safely' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l database-url -d 'The control plane\'s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -s o -l output -d 'Output format. Default: table, on a terminal and in a pipe alike (fitted to the width; wide: every column); json only when asked' -r -f -a "table\t'Tables and sentences for a human, fitted to the screen\'s width'
wide\t'Tables with every column, however wide'
json\t'One JSON document on stdout, for scripts'
markdown\t'A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)'
openmetrics\t'The OpenMetrics text format, for monitoring (`stuck` only)'"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l color -d 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never' -r -f -a "auto\t'On a terminal, unless NO_COLOR is set'
always\t''
never\t''"
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l service -d 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l statement-timeout -d 'Statement timeout of every query (e.g. 30s)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l connect-timeout -d 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l idle-in-transaction-timeout -d 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l schema -d 'The schema that holds the control plane\'s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp' -r
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l no-headers -d 'Tables without their header line'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -l show-sql -d 'Every SQL statement as sent, in order, with its parameters, on stderr (each line prefixed `sql> `): to hold the tool against the runbook. Never a password, never a result'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "diagnose" -d 'Every runbook query in one read-only snapshot, plus a verdict'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "fail-safely" -d 'Apply the runbook\'s break-glass state change, decided under row locks'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "fleet" -d 'The fleet\'s nodes and their capacity'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "stuck" -d 'Fleet-wide scan: stuck deployments and orphaned leases'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "wait" -d 'Follow a deployment until the runbook\'s Verification holds'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "history" -d 'What operators did: every break-glass action with its audit'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "sandbox" -d 'A throwaway local PostgreSQL with the reference schema and incident scenarios'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "doctor" -d 'Check the connection, the server and the schema this tool expects'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and not __fish_seen_subcommand_from diagnose fail-safely fleet stuck wait history sandbox doctor help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pushleft-controller -n "__fish_pushleft_controller_using_subcommand help; and __fish_seen_subcommand_from fleet" -f -a "list" -d 'Every node: pool, status, heartbeat age, slots used'
