//! The cycle search over the import graph: its knots (modules that
//! reach each other), each shown as its shortest circle.

use std::collections::{BTreeMap, BTreeSet};

/// Every circle: one per knot of modules that reach each other, shown as
/// a path from its first module back to it, then the knot's members.
pub fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::from([from.to_string()]);
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|m| (m, reach(m.as_str()))).collect();
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for (m, from_m) in &reaches {
        if done.contains(*m) {
            continue;
        }
        let knot: BTreeSet<String> = from_m
            .iter()
            .filter(|o| reaches.get(o).is_some_and(|r| r.contains(*m)))
            .cloned()
            .collect();
        done.extend(knot.iter().cloned());
        if knot.len() > 1 {
            let cycle = shortest_cycle(edges, m, &knot);
            let members: Vec<&str> = knot.iter().map(String::as_str).collect();
            found.push(format!(
                "{} (knot: {})",
                cycle.join(" → "),
                members.join(", ")
            ));
        }
    }
    found
}

/// The shortest path from `start` back to itself inside `knot`.
fn shortest_cycle(
    edges: &BTreeMap<String, BTreeSet<String>>,
    start: &str,
    knot: &BTreeSet<String>,
) -> Vec<String> {
    let mut came_from: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.to_string()]);
    while let Some(m) = queue.pop_front() {
        for next in edges
            .get(&m)
            .into_iter()
            .flatten()
            .filter(|n| knot.contains(*n))
        {
            if next == start {
                let mut path = vec![m.clone()];
                while let Some(prev) = came_from.get(path.last().expect("a module")) {
                    path.push(prev.clone());
                }
                path.reverse();
                path.push(start.to_string());
                return path;
            }
            if !came_from.contains_key(next) && next != start {
                came_from.insert(next.clone(), m.clone());
                queue.push_back(next.clone());
            }
        }
    }
    vec![start.to_string()]
}
