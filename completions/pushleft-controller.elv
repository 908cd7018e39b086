
use builtin;
use str;

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
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand diagnose 'Every runbook query in one read-only snapshot, plus a verdict'
            cand fail-safely 'Apply the runbook''s break-glass state change, decided under row locks'
            cand fleet 'The fleet''s nodes and their capacity'
            cand stuck 'Fleet-wide scan: stuck deployments and orphaned leases'
            cand wait 'Follow a deployment until the runbook''s Verification holds'
            cand sandbox 'A throwaway local PostgreSQL with the reference schema and incident scenarios'
            cand doctor 'Check the connection, the server and the schema this tool expects'
            cand generate 'Write shell completions and man pages (for packagers and CI)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pushleft-controller;diagnose'= {
            cand --events 'How many of the latest events the table shows (JSON has them all)'
            cand --stale-after 'A node whose heartbeat is older than this is stale'
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;fail-safely'= {
            cand --reason 'The ticket and the reason, stored verbatim in the event'
            cand --expect-path 'Refuse unless the path decided under the locks is this one'
            cand --expect-fingerprint 'Refuse unless the state still has this fingerprint (from diagnose)'
            cand --idempotency-key 'Replay key; default: derived from the deployment and the reason'
            cand --role 'Run the transaction as this role (SET LOCAL ROLE), e.g. the owner'
            cand --lock-timeout 'How long to wait for another transaction''s row locks'
            cand --stale-after 'A node whose heartbeat is older than this is stale'
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --dry-run 'Decide and check everything, then roll back and print the plan'
            cand -y 'Do not ask for confirmation (required without a terminal)'
            cand --yes 'Do not ask for confirmation (required without a terminal)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;fleet'= {
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
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
            cand --stale-after 'A node whose heartbeat is older than this is stale'
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --stale 'Only nodes whose heartbeat is stale'
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
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --exit-code 'Exit 10 when anything is stuck or orphaned (for cron and monitors)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;wait'= {
            cand --timeout 'Give up after this long (exit 6)'
            cand --interval 'How often to look'
            cand --stale-after 'A node whose heartbeat is older than this is stale'
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;sandbox'= {
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand --keep 'Leave the sandbox running when this command ends, and print how to stop it'
            cand --simulate 'Run the reference control plane in the background while the command runs: live nodes heartbeat, agents on them run their jobs, teardowns complete (or wait for a dead node), failed deployments are reaped'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;doctor'= {
            cand --role 'Also check that this role can be assumed (as fail-safely --role)'
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pushleft-controller;generate'= {
            cand --out-dir 'Where completions/ and man/ are written'
            cand --database-url 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed'
            cand --service 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL'
            cand -o 'Output format. Default: table on a terminal, json otherwise'
            cand --output 'Output format. Default: table on a terminal, json otherwise'
            cand --statement-timeout 'Statement timeout of every query (e.g. 30s)'
            cand --connect-timeout 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]'
            cand --idle-in-transaction-timeout 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)'
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
            cand sandbox 'A throwaway local PostgreSQL with the reference schema and incident scenarios'
            cand doctor 'Check the connection, the server and the schema this tool expects'
            cand generate 'Write shell completions and man pages (for packagers and CI)'
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
        &'pushleft-controller;help;sandbox'= {
        }
        &'pushleft-controller;help;doctor'= {
        }
        &'pushleft-controller;help;generate'= {
        }
        &'pushleft-controller;help;help'= {
        }
    ]
    $completions[$command]
}
