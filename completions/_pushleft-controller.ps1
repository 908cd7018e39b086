
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'pushleft-controller' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'pushleft-controller'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'pushleft-controller' {
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('diagnose', 'diagnose', [CompletionResultType]::ParameterValue, 'Every runbook query in one read-only snapshot, plus a verdict')
            [CompletionResult]::new('fail-safely', 'fail-safely', [CompletionResultType]::ParameterValue, 'Apply the runbook''s break-glass state change, decided under row locks')
            [CompletionResult]::new('fleet', 'fleet', [CompletionResultType]::ParameterValue, 'The fleet''s nodes and their capacity')
            [CompletionResult]::new('stuck', 'stuck', [CompletionResultType]::ParameterValue, 'Fleet-wide scan: stuck deployments and orphaned leases')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Follow a deployment until the runbook''s Verification holds')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'A throwaway local PostgreSQL with the reference schema and incident scenarios')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the connection, the server and the schema this tool expects')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages (for packagers and CI)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pushleft-controller;diagnose' {
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'How many of the latest events the table shows (JSON has them all)')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'A node whose heartbeat is older than this is stale')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;fail-safely' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'The ticket and the reason, stored verbatim in the event')
            [CompletionResult]::new('--expect-path', '--expect-path', [CompletionResultType]::ParameterName, 'Refuse unless the path decided under the locks is this one')
            [CompletionResult]::new('--expect-fingerprint', '--expect-fingerprint', [CompletionResultType]::ParameterName, 'Refuse unless the state still has this fingerprint (from diagnose)')
            [CompletionResult]::new('--idempotency-key', '--idempotency-key', [CompletionResultType]::ParameterName, 'Replay key; default: derived from the deployment and the reason')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Run the transaction as this role (SET LOCAL ROLE), e.g. the owner')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for another transaction''s row locks')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'A node whose heartbeat is older than this is stale')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Decide and check everything, then roll back and print the plan')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required without a terminal)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;fleet' {
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
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
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'A node whose heartbeat is older than this is stale')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--stale', '--stale', [CompletionResultType]::ParameterName, 'Only nodes whose heartbeat is stale')
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
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 10 when anything is stuck or orphaned (for cron and monitors)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;wait' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up after this long (exit 6)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'How often to look')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'A node whose heartbeat is older than this is stale')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;sandbox' {
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Leave the sandbox running when this command ends, and print how to stop it')
            [CompletionResult]::new('--simulate', '--simulate', [CompletionResultType]::ParameterName, 'Run the reference control plane in the background while the command runs: live nodes heartbeat, agents on them run their jobs, teardowns complete (or wait for a dead node), failed deployments are reaped')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;doctor' {
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Also check that this role can be assumed (as fail-safely --role)')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pushleft-controller;generate' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Where completions/ and man/ are written')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'The control plane''s database (URL or key=value). Overrides the PG* variables. Never printed')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'The connection service to use: a section of ~/.pg_service.conf (PGSERVICEFILE) or pg_service.conf (PGSYSCONFDIR), as service= would name it; overrides PGSERVICE. Not together with a URL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format. Default: table on a terminal, json otherwise')
            [CompletionResult]::new('--statement-timeout', '--statement-timeout', [CompletionResultType]::ParameterName, 'Statement timeout of every query (e.g. 30s)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for a session (TCP, TLS and login) [default: connect_timeout= in the URL, else PGCONNECT_TIMEOUT, else 10s]')
            [CompletionResult]::new('--idle-in-transaction-timeout', '--idle-in-transaction-timeout', [CompletionResultType]::ParameterName, 'The server ends a session of ours that sits idle inside a transaction this long (idle_in_transaction_session_timeout)')
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
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'A throwaway local PostgreSQL with the reference schema and incident scenarios')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the connection, the server and the schema this tool expects')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write shell completions and man pages (for packagers and CI)')
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
        'pushleft-controller;help;sandbox' {
            break
        }
        'pushleft-controller;help;doctor' {
            break
        }
        'pushleft-controller;help;generate' {
            break
        }
        'pushleft-controller;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
