
set edit:completion:arg-completer[pushleft-controller] = { |@words|
    var index = (count $words)
    set index = (- $index 1)

set edit:completion:arg-completer[pushleft-controller] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'pushleft-controller'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'pushleft-controller'= {
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand diagnose 'Every runbook query in one read-only snapshot, plus a verdict'
            cand fail-safely 'Apply the runbook''s break-glass state change, decided under row locks'
            cand fleet 'The fleet''s nodes and their capacity'
            cand stuck 'Fleet-wide scan: stuck deployments and orphaned leases'
            cand wait 'Follow a deployment until the runbook''s Verification holds'
            cand history 'What operators did: every break-glass action with its audit'
            cand sandbox 'A throwaway local PostgreSQL with the reference schema and incident scenarios'
            cand doctor 'Check the connection, the server and the schema this tool expects'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pushleft-controller;diagnose'= {
            cand --events 'How many of the latest events the table shows (JSON has them all)'
            cand --stale-after 'A node whose heartbeat is older than this is stale'
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;fail-safely'= {
            cand --from 'A batch: the deployment ids in FILE (- for stdin), one per line, or the JSON of `stuck -o json`. One plan, one confirmation (type the number of deployments), then each in its own guarded transaction'
            cand --max 'With --from: refuse a batch of more deployments than this'
            cand --reason 'The ticket and the reason, stored verbatim in the event'
            cand --plan-out 'Decide under the locks exactly as a dry run does, write nothing to the database, and write the plan to FILE (JSON): for review in the ticket, then `--apply FILE` by someone else'
            cand --plan-ttl 'With --plan-out: how long the plan may be applied'
            cand --apply 'Apply the plan in FILE (from --plan-out): only on the cluster and database it was made on, before it expires, each deployment held to the plan''s path and fingerprint'
            cand --rate 'With --from or --apply: start at most this many deployments a second (N/s or N/m), so a big incident does not stampede the scheduler'
            cand --expect-path 'Refuse unless the path decided under the locks is this one'
            cand --expect-fingerprint 'Refuse unless the state still has this fingerprint (from diagnose)'
            cand --idempotency-key 'Replay key; default: derived from the deployment and the reason'
            cand --role 'Run the transaction as this role (SET LOCAL ROLE), e.g. the owner'
            cand --lock-timeout 'How long to wait for another transaction''s row locks'
            cand --reason-pattern 'A regular expression every --reason must match (a team''s shape for reasons, e.g. ''^[A-Z]+-[0-9]+ '')'
            cand --allowed-triggers 'Triggers and rules on deployments and deployment_events that this team vouches for, comma-separated: NAME, or TABLE.NAME for one table. Any other refuses fail-safely'
            cand --stale-after 'A node whose heartbeat is older than this is stale'
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --keep-going 'With --from: go on after a deployment is refused or fails'
            cand --require-approval 'The two-person rule (PUSHLEFT_REQUIRE_APPROVAL=1): refuse to write without --apply of a plan made by someone else (another OS user or another session_user)'
            cand --break-glass-alone 'Under the two-person rule, write anyway with nobody else to approve: the audit and history mark it self_approved'
            cand --dry-run 'Decide and check everything, then roll back and print the plan'
            cand -y 'Do not ask for confirmation (required without a terminal)'
            cand --yes 'Do not ask for confirmation (required without a terminal)'
            cand --even-if-not-stuck 'Apply the change although the deployment is not stuck by the alerts'' definitions (e.g. running and healthy); the audit records it'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;fleet'= {
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'Every node: pool, status, heartbeat age, slots used'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pushleft-controller;fleet;list'= {
            cand --pool 'Only nodes of this pool'
            cand --status 'Only nodes with this status'
            cand --watch 'Refresh every INTERVAL (default 5s): in place on a terminal, with changes highlighted; one document per refresh on a pipe (JSON lines with --output json). Ctrl-C ends it'
            cand --count 'With --watch: stop after N refreshes'
            cand --stale-after 'A node whose heartbeat is older than this is stale'
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --stale 'Only nodes whose heartbeat is stale'
            cand --all-services 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;fleet;help'= {
            cand list 'Every node: pool, status, heartbeat age, slots used'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pushleft-controller;fleet;help;list'= {
        }
        &'pushleft-controller;fleet;help;help'= {
        }
        &'pushleft-controller;stuck'= {
            cand --for 'In flight with no event for this long counts as stuck'
            cand --grace 'A lease expired longer ago than this counts as orphaned'
            cand --group-by 'One line per node, pool, status, path or org: count, oldest, and the command that lists the group'
            cand --status 'Only deployments with this status'
            cand --org 'Only deployments of this org (id or a prefix of it)'
            cand --node 'Only deployments that wait on this node (by name)'
            cand --pool 'Only deployments that wait on a node of this pool'
            cand --path 'Only deployments whose break-glass path is this one'
            cand --sort 'The order of the rows [default: stuck-for, longest first]'
            cand --limit 'Show at most this many rows of each list (JSON says how many were left out)'
            cand --write 'Write the metrics (OpenMetrics) to FILE, replacing it atomically, instead of printing: for node_exporter''s textfile collector, from cron. A failed scan still writes pushleft_scan_success 0'
            cand --watch 'Refresh every INTERVAL (default 5s): in place on a terminal, with changes highlighted; one document per refresh on a pipe (JSON lines with --output json). Ctrl-C ends it'
            cand --count 'With --watch: stop after N refreshes'
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --exit-code 'Exit 10 when something is found that an operator can act on: a stuck deployment, or an orphaned lease of a deployment a break-glass path applies to (a lease only the lease reclaimer can release is shown but does not count). For cron and monitors'
            cand --all-services 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;wait'= {
            cand --from 'The deployment ids in FILE (- for stdin), one per line, or the JSON of `stuck -o json` or of `fail-safely --from FILE -o json` (its applied and replayed deployments): what a batch wrote'
            cand --timeout 'Give up after this long (exit 6)'
            cand --interval 'How often to look (at least 100ms: every look is a transaction)'
            cand --stale-after 'A node whose heartbeat is older than this is stale'
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;history'= {
            cand --since 'Only actions at or after this time (a time, or how long ago: 12h)'
            cand --until 'Only actions before this time (a time, or how long ago)'
            cand --operator 'Only actions by this user (OS user, session_user or current_user)'
            cand --reason-contains 'Only actions whose reason contains this text (any case)'
            cand --deployment 'Only actions on this deployment (full id or unique prefix)'
            cand --limit 'Show at most this many, the newest'
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --self-approved 'Only self-approved actions: a plan applied by its own requester, or a write with --break-glass-alone'
            cand --all-services 'Read every region: each service the service files define (PGSERVICEFILE or ~/.pg_service.conf, then pg_service.conf), in parallel; a region column says where each row comes from'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;sandbox'= {
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --keep 'Leave the sandbox running when this command ends, and print how to stop it'
            cand --simulate 'Run the reference control plane in the background while the command runs: live nodes heartbeat, agents on them run their jobs, teardowns complete (or wait for a dead node), failed deployments are reaped'
            cand --big-incident 'Also load a big incident: edge-07 died and stranded 40 more deployments (for `stuck --group-by node` and `fail-safely --from`)'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;doctor'= {
            cand --role 'Also check that this role can be assumed (as fail-safely --role)'
            cand --allowed-triggers 'Triggers and rules on deployments and deployment_events that this team vouches for, comma-separated: NAME, or TABLE.NAME for one table. Any other refuses fail-safely'
            cand --database-url 'The control plane''s database (URL or key=value) [env: DATABASE_URL]. Overrides the PG* variables. Never printed'
            cand -o 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --output 'Output format. Default: table on a terminal (fitted to its width; wide: every column), json otherwise'
            cand --color 'Colour: auto (on a terminal, unless NO_COLOR is set), always, never'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --schema 'The schema that holds the control plane''s tables, as the catalog spells it. Every statement names its tables with it; the search path itself is pinned to pg_catalog, pg_temp'
            cand --no-headers 'Tables without their header line'
            cand --no-pager 'Never page: on a terminal, output taller than the screen goes through PAGER (default `less -FRX`) unless this is given'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;help'= {
            cand diagnose 'Every runbook query in one read-only snapshot, plus a verdict'
            cand fail-safely 'Apply the runbook''s break-glass state change, decided under row locks'
            cand fleet 'The fleet''s nodes and their capacity'
            cand stuck 'Fleet-wide scan: stuck deployments and orphaned leases'
            cand wait 'Follow a deployment until the runbook''s Verification holds'
            cand history 'What operators did: every break-glass action with its audit'
            cand sandbox 'A throwaway local PostgreSQL with the reference schema and incident scenarios'
            cand doctor 'Check the connection, the server and the schema this tool expects'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pushleft-controller;help;diagnose'= {
        }
        &'pushleft-controller;help;fail-safely'= {
        }
        &'pushleft-controller;help;fleet'= {
            cand list 'Every node: pool, status, heartbeat age, slots used'
        }
        &'pushleft-controller;help;fleet;list'= {
        }
        &'pushleft-controller;help;stuck'= {
        }
        &'pushleft-controller;help;wait'= {
        }
        &'pushleft-controller;help;history'= {
        }
        &'pushleft-controller;help;sandbox'= {
        }
        &'pushleft-controller;help;doctor'= {
        }
        &'pushleft-controller;help;help'= {
        }
    ]
    $completions[$command]
}

