//! The cases: URL and key=value forms, the environment, service files,
//! `.pgpass`, several hosts, hostaddr, every sslmode against each server,
//! pg_hba's hostssl/hostnossl, client certificates and root certificates.

use super::Case;
use super::world::{PW_CA, PW_PLAIN, PW_SELF, World};

pub(super) fn case(name: impl Into<String>) -> Case {
    Case {
        name: name.into(),
        ..Case::default()
    }
}

impl Case {
    pub(super) fn conn(mut self, conn: impl Into<String>) -> Case {
        self.conn = Some(conn.into());
        self
    }

    pub(super) fn env(mut self, key: &str, value: impl Into<String>) -> Case {
        self.env.push((key.into(), value.into()));
        self
    }

    pub(super) fn pgpass(mut self, text: impl Into<String>) -> Case {
        self.pgpass = Some(text.into());
        self
    }

    fn service(mut self, text: impl Into<String>) -> Case {
        self.service = Some(text.into());
        self
    }

    pub(super) fn file(mut self, path: &str, text: impl Into<String>, mode: u32) -> Case {
        self.files.push((path.into(), text.into(), mode));
        self
    }

    fn deliberate(mut self, why: &'static str) -> Case {
        self.deliberate = Some(why);
        self
    }
}

pub fn all(w: &World) -> Vec<Case> {
    let mut cases = Vec::new();
    cases.extend(urls(w));
    cases.extend(key_values(w));
    cases.extend(environment(w));
    cases.extend(multi_host(w));
    cases.extend(super::cases_pgpass::pgpass(w));
    cases.extend(services(w));
    cases.extend(super::cases_tls::tls_matrix(w));
    cases.extend(super::cases_tls::tls_special(w));
    cases.extend(super::cases_tls::standby(w));
    cases
}

fn urls(w: &World) -> Vec<Case> {
    let (pc, ps, pp) = (w.ca.port, w.selfsigned.port, w.plain.port);
    let (rh, rp) = w.refused;
    let plain_dir = w.plain.socket_dir().replace('/', "%2F");
    vec![
        case("url basic").conn(format!("postgresql://postgres@127.0.0.1:{pc}/postgres")),
        case("url postgres:// scheme").conn(format!("postgres://postgres@127.0.0.3:{pp}/app")),
        case("url host without port takes PGPORT")
            .conn("postgresql://postgres@127.0.0.3/postgres")
            .env("PGPORT", pp.to_string()),
        case("url empty host takes PGHOST")
            .conn("postgresql://postgres@/postgres")
            .env("PGHOST", "127.0.0.3")
            .env("PGPORT", pp.to_string()),
        case("url query host replaces the netloc's")
            .conn(format!("postgresql://postgres@127.0.0.1:{pc}/postgres?host=127.0.0.3&port={pp}")),
        case("url query host and port lists").conn(format!(
            "postgresql://postgres@/postgres?host={rh},127.0.0.3&port={rp},{pp}"
        )),
        case("url netloc host list").conn(format!(
            "postgresql://postgres@{rh}:{rp},127.0.0.2:{ps}/postgres"
        )),
        case("url netloc list, one port missing takes 5432").conn(format!(
            "postgresql://postgres@127.0.0.3,127.0.0.1:{pc}/postgres"
        )),
        case("url password").conn(format!("postgresql://pwuser:{PW_PLAIN}@127.0.0.3:{pp}/postgres")),
        case("url wrong password")
            .conn(format!("postgresql://pwuser:{PW_SELF}@127.0.0.3:{pp}/postgres")),
        case("url empty password falls back to pgpass")
            .conn(format!("postgresql://pwuser:@127.0.0.3:{pp}/postgres"))
            .pgpass(format!("127.0.0.3:{pp}:postgres:pwuser:{PW_PLAIN}\n")),
        // libpq takes `/tmp/nowhere@127.0.0.3` for a socket directory (no
        // name lookup leaves the machine); the tool refuses the URL.
        case("url unencoded @ in the password").conn(format!(
            "postgresql://pwuser:{PW_PLAIN}@%2Ftmp%2Fnowhere@127.0.0.3:{pp}/postgres"
        )),
        case("url encoded socket directory as host")
            .conn(format!("postgresql://postgres@{plain_dir}:{pp}/app")),
        case("url socket directory in the query")
            .conn(format!("postgresql:///app?host={}&port={pp}&user=postgres", w.plain.socket_dir())),
        case("url without dbname takes PGDATABASE")
            .conn(format!("postgresql://postgres@127.0.0.3:{pp}"))
            .env("PGDATABASE", "app"),
        case("url empty user takes PGUSER")
            .conn(format!("postgresql://@127.0.0.3:{pp}/postgres"))
            .env("PGUSER", "nossl"),
        case("url ssl=true").conn(format!("postgresql://postgres@127.0.0.3:{pp}/postgres?ssl=true")),
        case("url sslmode=disable to the ca server")
            .conn(format!("postgresql://postgres@127.0.0.1:{pc}/postgres?sslmode=disable")),
        case("url target_session_attrs=read-write skips a read-only server").conn(format!(
            "postgresql://postgres@127.0.0.2:{ps},127.0.0.3:{pp}/postgres?target_session_attrs=read-write"
        )),
        case("url target_session_attrs=read-only").conn(format!(
            "postgresql://postgres@127.0.0.3:{pp},127.0.0.2:{ps}/postgres?target_session_attrs=read-only"
        )),
        case("url application_name is only a name")
            .conn(format!("postgresql://postgres@127.0.0.3:{pp}/postgres?application_name=x")),
        case("url ipv6 loopback where nothing listens")
            .conn(format!("postgresql://postgres@[::1]:{rp}/postgres?connect_timeout=2")),
        case("url unknown parameter")
            .conn(format!("postgresql://postgres@127.0.0.3:{pp}/postgres?bogus=1")),
        case("url bad percent-encoding").conn(format!("postgresql://postgres@127.0.0.3:{pp}/%zz")),
        case("url port not a number").conn("postgresql://postgres@127.0.0.3:abc/postgres"),
    ]
}

fn key_values(w: &World) -> Vec<Case> {
    let (pc, ps, pp) = (w.ca.port, w.selfsigned.port, w.plain.port);
    let root = w.file("root.crt");
    vec![
        case("kv basic").conn(format!("host=127.0.0.1 port={pc} user=postgres dbname=postgres")),
        case("kv quoted and escaped").conn(format!(
            "host = '127.0.0.3' port={pp} user='postgres' dbname=ap\\p"
        )),
        case("kv later key wins").conn(format!(
            "host=127.0.0.1 port={pc} host=127.0.0.3 port={pp} user=postgres"
        )),
        case("kv bare database name")
            .conn("app")
            .env("PGHOST", "127.0.0.3")
            .env("PGPORT", pp.to_string())
            .env("PGUSER", "postgres"),
        case("kv hostaddr without host")
            .conn(format!("hostaddr=127.0.0.3 port={pp} user=postgres dbname=postgres")),
        case("kv hostaddr without host, sslmode=require is TLS")
            .conn(format!("hostaddr=127.0.0.1 port={pc} user=postgres sslmode=require")),
        case("kv hostaddr without host, verify-full fails").conn(format!(
            "hostaddr=127.0.0.1 port={pc} user=postgres sslmode=verify-full sslrootcert={root}"
        )),
        case("kv host name and hostaddr, verify-full").conn(format!(
            "host=localhost hostaddr=127.0.0.1 port={pc} user=postgres sslmode=verify-full sslrootcert={root}"
        )),
        case("kv wrong host name and hostaddr, verify-full").conn(format!(
            "host=db.invalid hostaddr=127.0.0.1 port={pc} user=postgres sslmode=verify-full sslrootcert={root}"
        )),
        case("kv socket directory host with a hostaddr dials TCP").conn(format!(
            "host={} hostaddr=127.0.0.3 port={pp} user=postgres",
            w.ca.socket_dir()
        )),
        case("kv socket directory host with a hostaddr, TLS").conn(format!(
            "host={} hostaddr=127.0.0.1 port={pc} user=postgres sslmode=require",
            w.ca.socket_dir()
        )),
        case("kv host and hostaddr counts differ")
            .conn(format!("host=a,b hostaddr=127.0.0.3 port={pp} user=postgres")),
        case("kv port out of range skips the host")
            .conn(format!("host=127.0.0.1,127.0.0.3 port=0,{pp} user=postgres")),
        case("kv options make the session read-only").conn(format!(
            "host=127.0.0.3,127.0.0.1 port={pp},{pc} user=postgres \
             options='-c default_transaction_read_only=on' target_session_attrs=read-write"
        )),
        case("kv client_encoding UTF8")
            .conn(format!("host=127.0.0.3 port={pp} user=postgres client_encoding=UTF8")),
        case("kv client_encoding auto")
            .conn(format!("host=127.0.0.3 port={pp} user=postgres client_encoding=auto")),
        case("kv client_encoding LATIN1")
            .conn(format!("host=127.0.0.3 port={pp} user=postgres client_encoding=LATIN1"))
            .deliberate("client_encoding other than UTF8 is refused"),
        case("kv gssencmode=require")
            .conn(format!("host=127.0.0.3 port={pp} user=postgres gssencmode=require")),
        case("kv gssencmode=disable")
            .conn(format!("host=127.0.0.3 port={pp} user=postgres gssencmode=disable")),
        case("kv requiressl=1 to a server without TLS")
            .conn(format!("host=127.0.0.3 port={pp} user=postgres requiressl=1")),
        case("kv keepalives and tcp_user_timeout").conn(format!(
            "host=127.0.0.2 port={ps} user=postgres keepalives=1 keepalives_idle=30 tcp_user_timeout=5000"
        )),
        case("kv connect_timeout=-1 is no limit")
            .conn(format!("host=127.0.0.3 port={pp} user=postgres connect_timeout=-1")),
        case("kv unterminated quote").conn(format!("host='127.0.0.3 port={pp}")),
        case("kv channel_binding=require without TLS").conn(format!(
            "host=127.0.0.3 port={pp} user=pwuser password={PW_PLAIN} channel_binding=require"
        )),
        case("kv channel_binding=require over TLS").conn(format!(
            "host=127.0.0.1 port={pc} user=pwuser password={PW_CA} channel_binding=require"
        )),
    ]
}

fn environment(w: &World) -> Vec<Case> {
    let (pc, ps, pp) = (w.ca.port, w.selfsigned.port, w.plain.port);
    let env = |name: &str, host: &str, port: u16| {
        case(name)
            .env("PGHOST", host)
            .env("PGPORT", port.to_string())
            .env("PGUSER", "postgres")
    };
    vec![
        env("env ca", "127.0.0.1", pc).env("PGDATABASE", "app"),
        env("env self", "127.0.0.2", ps),
        env("env plain socket", &w.plain.socket_dir(), pp),
        env("env ca socket, verify-full ignored", &w.ca.socket_dir(), pc)
            .env("PGSSLMODE", "verify-full"),
        env("env PGHOSTADDR", "localhost", pc)
            .env("PGHOSTADDR", "127.0.0.2")
            .env("PGPORT", ps.to_string()),
        case("env PGHOSTADDR alone, PGSSLMODE=require")
            .env("PGHOSTADDR", "127.0.0.1")
            .env("PGPORT", pc.to_string())
            .env("PGUSER", "postgres")
            .env("PGSSLMODE", "require"),
        env("env PGOPTIONS and read-write", "127.0.0.3", pp)
            .env("PGOPTIONS", "-c default_transaction_read_only=on")
            .env("PGTARGETSESSIONATTRS", "read-write"),
        env(
            "env PGTARGETSESSIONATTRS=read-only",
            "127.0.0.3,127.0.0.2",
            0,
        )
        .env("PGPORT", format!("{pp},{ps}"))
        .env("PGTARGETSESSIONATTRS", "read-only"),
        env("env target primary", "127.0.0.2", ps).env("PGTARGETSESSIONATTRS", "primary"),
        env("env target standby", "127.0.0.2", ps).env("PGTARGETSESSIONATTRS", "standby"),
        env("env target prefer-standby", "127.0.0.2", ps)
            .env("PGTARGETSESSIONATTRS", "prefer-standby"),
        env("env target bogus", "127.0.0.2", ps).env("PGTARGETSESSIONATTRS", "bogus"),
        env("env PGREQUIRESSL=1", "127.0.0.1", pc).env("PGREQUIRESSL", "1"),
        env("env PGSSLMODE empty", "127.0.0.1", pc).env("PGSSLMODE", ""),
        env("env PGHOST empty is the default socket", "", pc),
        env("env PGPORT empty is 5432", "127.0.0.3", pp).env("PGPORT", ""),
        env("env PGAPPNAME", "127.0.0.3", pp).env("PGAPPNAME", "psql"),
        env("env PGCLIENTENCODING", "127.0.0.3", pp).env("PGCLIENTENCODING", "UTF8"),
        env("env PGGSSENCMODE=disable", "127.0.0.3", pp).env("PGGSSENCMODE", "disable"),
        env("env PGCONNECT_TIMEOUT=0", "127.0.0.3", pp).env("PGCONNECT_TIMEOUT", "0"),
        env("env PGCONNECT_TIMEOUT=-1", "127.0.0.3", pp).env("PGCONNECT_TIMEOUT", "-1"),
        env("env PGCONNECT_TIMEOUT not a number", "127.0.0.3", pp).env("PGCONNECT_TIMEOUT", "2s"),
        env("env PGPASSWORD", "127.0.0.2", ps)
            .env("PGUSER", "pwuser")
            .env("PGPASSWORD", PW_SELF),
        env("env URL over PGHOST", "127.0.0.1", pc).conn(format!("host=127.0.0.2 port={ps}")),
        env("env PGSSLROOTCERT and verify-ca", "127.0.0.1", pc)
            .env("PGSSLMODE", "verify-ca")
            .env("PGSSLROOTCERT", w.file("root.crt")),
    ]
}

fn multi_host(w: &World) -> Vec<Case> {
    let (pc, ps, pp) = (w.ca.port, w.selfsigned.port, w.plain.port);
    let (rh, rp) = w.refused;
    let (sh, sp) = w.silent;
    let empty = w.empty_dir.path().display().to_string();
    vec![
        case("multi refused then plain")
            .conn(format!("host={rh},127.0.0.3 port={rp},{pp} user=postgres")),
        case("multi empty socket dir then plain")
            .conn(format!("host={empty},127.0.0.3 port={pp} user=postgres")),
        case("multi only an empty socket dir").conn(format!("host={empty} port={pp} user=postgres")),
        case("multi silent listener then plain, connect_timeout per host").conn(format!(
            "host={sh},127.0.0.3 port={sp},{pp} user=postgres connect_timeout=2"
        )),
        case("multi silent listener alone")
            .conn(format!("host={sh} port={sp} user=postgres connect_timeout=1")),
        case("multi PGCONNECT_TIMEOUT with a silent first host")
            .conn(format!("host={sh},127.0.0.2 port={sp},{ps} user=postgres"))
            .env("PGCONNECT_TIMEOUT", "2"),
        case("multi missing database stops at the first server")
            .conn(format!("host=127.0.0.1,127.0.0.2 port={pc},{ps} user=postgres dbname=only_self")),
        case("multi wrong password stops at the first server").conn(format!(
            "host=127.0.0.3,127.0.0.2 port={pp},{ps} user=pwuser password={PW_SELF}"
        )),
        case("multi TLS failure stops").conn(format!(
            "host=127.0.0.1,localhost hostaddr=127.0.0.1,127.0.0.1 port={pc} user=postgres \
             sslmode=verify-full sslrootcert={}",
            w.file("root.crt")
        )),
        case("multi target standby finds none")
            .conn(format!("host=127.0.0.2,127.0.0.3 port={ps},{pp} user=postgres target_session_attrs=standby")),
        case("multi prefer-standby falls back to the first")
            .conn(format!("host=127.0.0.3,127.0.0.2 port={pp},{ps} user=postgres target_session_attrs=prefer-standby")),
        case("multi primary skips nothing")
            .conn(format!("host=127.0.0.2,127.0.0.3 port={ps},{pp} user=postgres target_session_attrs=primary")),
        case("multi read-write with hostaddr list").conn(format!(
            "hostaddr=127.0.0.2,127.0.0.1 port={ps},{pc} user=postgres target_session_attrs=read-write"
        )),
        case("multi three hosts, one port for all")
            .conn(format!("host={rh},{empty},127.0.0.3 port={pp} user=postgres")),
    ]
}

fn services(w: &World) -> Vec<Case> {
    let (pc, pp) = (w.ca.port, w.plain.port);
    let plain = format!("[plain]\nhost=127.0.0.3\nport={pp}\nuser=postgres\ndbname=app\n");
    let tls = format!("[tls]\nhost=127.0.0.3\nport={pp}\nuser=postgres\nsslmode=require\n");
    vec![
        case("service from the connection string")
            .conn("service=plain")
            .service(plain.clone()),
        case("service from PGSERVICE")
            .env("PGSERVICE", "plain")
            .service(plain.clone()),
        case("service in a URL")
            .conn("postgresql:///?service=plain")
            .service(plain.clone()),
        case("service: the URL wins")
            .conn(format!("service=plain host=127.0.0.1 port={pc}"))
            .service(plain.clone()),
        case("service wins over the environment")
            .env("PGSERVICE", "plain")
            .env("PGHOST", "127.0.0.1")
            .env("PGPORT", pc.to_string())
            .service(plain.clone()),
        case("service PGSERVICEFILE")
            .env("PGSERVICE", "plain")
            .file("conf/services", plain.clone(), 0o644)
            .env_home_file("PGSERVICEFILE", "conf/services"),
        case("service PGSYSCONFDIR")
            .env("PGSERVICE", "plain")
            .file("sysconf/pg_service.conf", plain.clone(), 0o644)
            .env_home_file("PGSYSCONFDIR", "sysconf"),
        case("service not defined")
            .conn("service=nowhere")
            .service(plain.clone()),
        case("service with sslmode=require to a plain server")
            .conn("service=tls")
            .service(tls),
        case("service syntax error")
            .conn("service=plain")
            .service("[plain]\nhost = 127.0.0.3\n"),
        case("service section ends at the next one")
            .conn(format!("service=a port={pp} user=postgres"))
            .service(
                "[a]
host=127.0.0.3
[b]
host=127.0.0.1
dbname=app
",
            ),
    ]
}
