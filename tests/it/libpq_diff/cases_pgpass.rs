//! The `.pgpass` cases: which line libpq 15 takes for each host (the
//! host, else the hostaddr; `localhost` for an empty host or the default
//! socket directory), wildcards, escapes, permissions, PGPASSFILE.

use super::Case;
use super::cases::case;
use super::world::{PW_CA, PW_COLON, PW_PLAIN, PW_SELF, World};

pub(super) fn pgpass(w: &World) -> Vec<Case> {
    let (pc, ps, pp) = (w.ca.port, w.selfsigned.port, w.plain.port);
    let (rh, rp) = w.refused;
    let plain_dir = w.plain.socket_dir();
    vec![
        case("pgpass per host: the second host's line")
            .conn(format!(
                "host={rh},127.0.0.3 port={rp},{pp} user=pwuser dbname=postgres"
            ))
            .pgpass(format!(
                "{rh}:{rp}:*:pwuser:wrong-Aa1\n127.0.0.3:{pp}:*:pwuser:{PW_PLAIN}\n"
            )),
        case("pgpass per host: two servers, two passwords")
            .conn(format!(
                "host=127.0.0.2,127.0.0.3 port={ps},{pp} user=pwuser"
            ))
            .pgpass(format!(
                "127.0.0.2:*:*:pwuser:{PW_SELF}\n127.0.0.3:*:*:pwuser:{PW_PLAIN}\n"
            )),
        case("pgpass unescaped colon ends the password")
            .conn(format!("host=127.0.0.3 port={pp} user=pwuser"))
            .pgpass(format!("127.0.0.3:{pp}:*:pwuser:{PW_PLAIN}:trailing\n")),
        case("pgpass escaped colon in the password")
            .conn(format!(
                "host=127.0.0.3 port={pp} user=colon dbname=postgres"
            ))
            .pgpass(format!(
                "127.0.0.3:{pp}:*:colon:{}\n",
                PW_COLON.replace(':', "\\:")
            )),
        case("pgpass wildcards")
            .conn(format!("host=127.0.0.2 port={ps} user=pwuser dbname=app"))
            .pgpass(format!(
                "*:*:postgres:pwuser:wrong-Aa1\n*:*:*:pwuser:{PW_SELF}\n"
            )),
        case("pgpass a star that is not a whole field")
            .conn(format!("host=127.0.0.2 port={ps} user=pwuser"))
            .pgpass(format!("127.0.0.*:*:*:pwuser:{PW_SELF}\n")),
        case("pgpass socket directory by its path")
            .conn(format!(
                "host={plain_dir} port={pp} user=pwuser dbname=postgres"
            ))
            .pgpass(format!("{plain_dir}:{pp}:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass localhost does not match another socket directory")
            .conn(format!(
                "host={plain_dir} port={pp} user=pwuser dbname=postgres"
            ))
            .pgpass(format!("localhost:{pp}:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass group readable is ignored")
            .conn(format!("host=127.0.0.3 port={pp} user=pwuser"))
            .pgpass(format!("*:*:*:pwuser:{PW_PLAIN}\n"))
            .pgpass_mode(0o640),
        case("pgpass PGPASSFILE")
            .conn(format!("host=127.0.0.3 port={pp} user=pwuser"))
            .file(
                "elsewhere/passwords",
                format!("*:*:*:*:{PW_PLAIN}\n"),
                0o600,
            )
            .env_home_file("PGPASSFILE", "elsewhere/passwords"),
        case("pgpass passfile parameter")
            .conn(format!(
                "host=127.0.0.3 port={pp} user=pwuser passfile=HOME/elsewhere/pw"
            ))
            .file("elsewhere/pw", format!("*:*:*:*:{PW_PLAIN}\n"), 0o600),
        case("pgpass PGPASSWORD wins over the file")
            .conn(format!("host=127.0.0.3 port={pp} user=pwuser"))
            .env("PGPASSWORD", PW_SELF)
            .pgpass(format!("*:*:*:*:{PW_PLAIN}\n")),
        case("pgpass port field is the port in effect")
            .conn(format!("postgresql://pwuser@127.0.0.3/postgres?port={pp}"))
            .pgpass(format!("127.0.0.3:5432:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass over TLS to the ca server")
            .conn(format!(
                "host=127.0.0.1 port={pc} user=pwuser sslmode=require"
            ))
            .pgpass(format!("127.0.0.1:{pc}:*:pwuser:{PW_CA}\n")),
        // libpq 15 searches the password file for `host`, else for
        // `hostaddr`; only an empty host or the compiled-in socket
        // directory is `localhost` (Debian's psql wrapper sets PGHOST to
        // that directory, which is why psql run through it finds
        // `localhost`'s line for a lone hostaddr).
        case("pgpass lone hostaddr: the address's line")
            .conn(format!(
                "hostaddr=127.0.0.3 port={pp} user=pwuser dbname=postgres"
            ))
            .pgpass(format!("127.0.0.3:{pp}:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass lone hostaddr: not localhost's line")
            .conn(format!(
                "hostaddr=127.0.0.3 port={pp} user=pwuser dbname=postgres"
            ))
            .pgpass(format!("localhost:{pp}:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass empty host and a hostaddr: the address's line")
            .conn(format!(
                "host='' hostaddr=127.0.0.3 port={pp} user=pwuser dbname=postgres"
            ))
            .pgpass(format!(
                "localhost:{pp}:*:pwuser:wrong-Aa1\n127.0.0.3:{pp}:*:pwuser:{PW_PLAIN}\n"
            )),
        case("pgpass hostaddr in a URL: the address's line")
            .conn(format!(
                "postgresql://pwuser@:{pp}/postgres?hostaddr=127.0.0.3"
            ))
            .pgpass(format!("127.0.0.3:{pp}:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass PGHOSTADDR alone: the address's line")
            .env("PGHOSTADDR", "127.0.0.3")
            .env("PGPORT", pp.to_string())
            .env("PGUSER", "pwuser")
            .env("PGDATABASE", "postgres")
            .pgpass(format!("127.0.0.3:{pp}:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass hostaddr list: each address's line")
            .conn(format!(
                "hostaddr={rh},127.0.0.3 port={rp},{pp} user=pwuser dbname=postgres"
            ))
            .pgpass(format!(
                "{rh}:{rp}:*:pwuser:wrong-Aa1\n127.0.0.3:{pp}:*:pwuser:{PW_PLAIN}\n"
            )),
        case("pgpass default socket directory host with a hostaddr is localhost")
            .conn(format!(
                "hostaddr=127.0.0.3 port={pp} user=pwuser dbname=postgres"
            ))
            .env("PGHOST", "/var/run/postgresql")
            .pgpass(format!("localhost:{pp}:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass default socket directory host with a hostaddr, not the address's line")
            .conn(format!(
                "hostaddr=127.0.0.3 port={pp} user=pwuser dbname=postgres"
            ))
            .env("PGHOST", "/var/run/postgresql")
            .pgpass(format!("127.0.0.3:{pp}:*:pwuser:{PW_PLAIN}\n")),
        case("pgpass socket directory host with a hostaddr: the directory's line")
            .conn(format!(
                "host={plain_dir} hostaddr=127.0.0.3 port={pp} user=pwuser dbname=postgres"
            ))
            .pgpass(format!(
                "127.0.0.3:{pp}:*:pwuser:wrong-Aa1\n{plain_dir}:{pp}:*:pwuser:{PW_PLAIN}\n"
            )),
        case("pgpass comment and CRLF lines")
            .conn(format!("host=127.0.0.2 port={ps} user=pwuser"))
            .pgpass(format!(
                "#127.0.0.2:*:*:pwuser:wrong-Aa1\r\n127.0.0.2:*:*:pwuser:{PW_SELF}\r\n"
            )),
    ]
}

impl Case {
    pub(super) fn pgpass_mode(mut self, mode: u32) -> Case {
        self.pgpass_mode = Some(mode);
        self
    }

    /// A variable naming a file under the case's HOME (`HOME/` is
    /// replaced when the case runs).
    pub(super) fn env_home_file(self, key: &str, relative: &str) -> Case {
        self.env(key, format!("HOME/{relative}"))
    }
}
