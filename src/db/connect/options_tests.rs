//! The service file's section as `collect` fills it in (`service`).

use std::collections::HashMap;
use std::fs;

use super::*;

fn collect(files: &[(&str, &str)], vars: &[(&str, &str)], url: Option<&str>) -> Result<Options> {
    let dir = tempfile::tempdir().unwrap();
    let mut map: HashMap<String, String> = HashMap::new();
    map.insert("HOME".into(), dir.path().display().to_string());
    map.insert(
        "PGSYSCONFDIR".into(),
        dir.path().join("etc").display().to_string(),
    );
    fs::create_dir(dir.path().join("etc")).unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    for (k, v) in vars {
        map.insert(k.to_string(), v.to_string());
    }
    Options::collect(url, None, &move |k| map.get(k).cloned())
}

#[test]
fn the_users_file_first_then_the_system_one_and_the_url_wins() {
    let user = "[a]\nhost=from-user\nport=1\n[b]\nhost=b\n";
    let system = "[a]\nhost=from-system\n[c]\n  dbname=c  \n";
    let files = [(".pg_service.conf", user), ("etc/pg_service.conf", system)];
    let o = collect(
        &files,
        &[("PGSERVICE", "a"), ("PGHOST", "env")],
        Some("port=2"),
    )
    .unwrap();
    assert_eq!(o.get("host"), Some("from-user"));
    assert_eq!(o.get("port"), Some("2"));
    let o = collect(&files, &[], Some("service=c")).unwrap();
    assert_eq!(o.get("dbname"), Some("c"));
    let err = collect(&files, &[], Some("service=zz")).unwrap_err();
    assert!(err.to_string().contains("\"zz\" not found"), "{err}");
}

#[test]
fn syntax_errors_and_nested_services_are_refused() {
    for text in [
        "[a]\nhost\n",
        "[a]\nservice=b\n",
        "[a]\nhost = x\n",
        "[a]\nldap://x\n",
    ] {
        let files = [(".pg_service.conf", text)];
        assert!(
            collect(&files, &[("PGSERVICE", "a")], None).is_err(),
            "{text}"
        );
    }
}
