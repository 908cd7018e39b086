use super::*;

#[test]
fn wildcards_stand_for_one_label() {
    assert!(dns_name_matches("*.example.com", "db.example.com"));
    assert!(dns_name_matches("DB.example.com", "db.EXAMPLE.com"));
    assert!(!dns_name_matches("*.example.com", "a.db.example.com"));
    assert!(!dns_name_matches("*.example.com", "example.com"));
    assert!(!dns_name_matches("db*.example.com", "db1.example.com"));
}
