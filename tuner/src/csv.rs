//! CSV reports whose columns are declared once, by name together with the value each row
//! holds in it, so a header and its rows cannot drift apart.

/// How a row's cell of one column is written.
type Cell<'a, T> = Box<dyn Fn(&T) -> String + 'a>;

/// A table's columns: each a header and its cells.
pub struct Csv<'a, T> {
    columns: Vec<(String, Cell<'a, T>)>,
}

impl<'a, T> Default for Csv<'a, T> {
    fn default() -> Self {
        Csv { columns: Vec::new() }
    }
}

impl<'a, T> Csv<'a, T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a column named `name` whose cells are `cell(row)`.
    pub fn column(mut self, name: impl Into<String>, cell: impl Fn(&T) -> String + 'a) -> Self {
        self.push(name, cell);
        self
    }

    /// [`Csv::column`] in place, for columns added in a loop.
    pub fn push(&mut self, name: impl Into<String>, cell: impl Fn(&T) -> String + 'a) {
        self.columns.push((name.into(), Box::new(cell)));
    }

    /// The header line and one line per row.
    pub fn write(&self, rows: impl IntoIterator<Item = T>) -> String {
        let line = |cells: Vec<String>| cells.join(",") + "\n";
        let mut out = line(self.columns.iter().map(|c| c.0.clone()).collect());
        for row in rows {
            out.push_str(&line(self.columns.iter().map(|c| (c.1)(&row)).collect()));
        }
        out
    }
}

/// A text cell in double quotes (origins such as `offspring of a+b`), quotes inside doubled.
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_has_a_cell_per_named_column() {
        let csv = Csv::new().column("n", |r: &(u32, &str)| r.0.to_string()).column("origin", |r| quoted(r.1));
        assert_eq!(csv.write([(1, "elite"), (2, "say \"hi\"")]), "n,origin\n1,\"elite\"\n2,\"say \"\"hi\"\"\"\n");
        assert_eq!(csv.write([]), "n,origin\n");
    }
}
