//! The documented JSON output of each command, rendered into its man page.

/// roff text for the JSON OUTPUT section of a man page, if the page has one.
pub fn for_page(page: &str) -> Option<&'static str> {
    match page {
        "pushleft-controller-doctor" => Some(DOCTOR),
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
