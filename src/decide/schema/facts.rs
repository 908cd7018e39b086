//! What the catalog document of `sql/schema_check/check.sql` says, as
//! plain typed rows: `db::schema_check` reads them, [`judge`](super::judge)
//! decides over them. One field per section of the document.

use crate::decide::triggers::{Rule, Trigger};

/// The catalog document, read.
#[derive(Debug, Clone, Default)]
pub struct SchemaFacts {
    /// The expected tables found in the schema, with their columns (the
    /// `tables` section).
    pub tables: Vec<TableFacts>,
    /// `deployment_events` has `UNIQUE (deployment_id, sequence)` (the
    /// `unique_key` section; absent or not `true` reads as `false`).
    pub unique_key: bool,
    /// The foreign keys between the locking tables (`foreign_keys`).
    pub foreign_keys: Vec<ForeignKeyFacts>,
    /// The relations of each protected or written table's tree (`tree`).
    pub relations: Vec<TreeRelation>,
    /// The triggers of those trees (`triggers`).
    pub triggers: Vec<TreeTrigger>,
    /// The rewrite rules of those trees (`rules`).
    pub rules: Vec<TreeRule>,
    /// The closed world's rows (`inventory`).
    pub inventory: Vec<InventoryRow>,
    /// The enforcing trigger's function body exactly as the tool installs
    /// it (`approvals install --enforce`): not read from the catalog but
    /// what the trigger found there must hold to the byte to be vouched
    /// for (README, "Two-person break-glass").
    pub enforce_body: &'static str,
}

/// One table found, by name, with its oid and its columns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableFacts {
    pub name: String,
    pub oid: i64,
    pub columns: Vec<ColumnFacts>,
}

/// One column of a table found, with the server's name of its type
/// (`format_type`, e.g. `character varying(40)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnFacts {
    pub name: String,
    pub server_type: String,
}

/// One foreign key constraint from `child.column` to `parent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignKeyFacts {
    pub child: String,
    pub column: String,
    pub parent: String,
    /// The constraint's name.
    pub name: String,
    /// Its enforcing triggers are disabled.
    pub disabled: bool,
}

/// One relation of the tree of `root` (the table itself, a partition or
/// an inheritance child), with its `pg_class.relkind`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRelation {
    pub root: String,
    pub relation: String,
    pub relkind: String,
}

/// One trigger on a relation of the tree of `root`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeTrigger {
    pub root: String,
    pub trigger: Trigger,
}

/// One rewrite rule on a relation of the tree of `root`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRule {
    pub root: String,
    pub rule: Rule,
}

/// One row of the inventory: what was found (`kind`, `row_security`,
/// `child_foreign_key`, `code`, `privilege`) on which relation of whose
/// tree, with its detail and, for code, the function called.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InventoryRow {
    pub what: String,
    pub root: String,
    pub relation: String,
    pub detail: String,
    pub schema: Option<String>,
    pub name: Option<String>,
}

impl SchemaFacts {
    /// The table named `name`, when it was found.
    pub fn table(&self, name: &str) -> Option<&TableFacts> {
        self.tables.iter().find(|t| t.name == name)
    }

    /// The relations of `root`'s tree, in the document's order.
    pub fn relations_of<'a>(&'a self, root: &'a str) -> impl Iterator<Item = &'a TreeRelation> {
        self.relations.iter().filter(move |r| r.root == root)
    }

    /// The triggers of `root`'s tree, in the document's order.
    pub fn triggers_of(&self, root: &str) -> Vec<Trigger> {
        self.triggers
            .iter()
            .filter(|t| t.root == root)
            .map(|t| t.trigger.clone())
            .collect()
    }

    /// The rules of `root`'s tree, in the document's order.
    pub fn rules_of(&self, root: &str) -> Vec<Rule> {
        self.rules
            .iter()
            .filter(|r| r.root == root)
            .map(|r| r.rule.clone())
            .collect()
    }
}
