//! Labels Rust items with `syn`, a parser independent of memkit's tree-sitter grammar.
//!
//!     rust_labeler < files > shapes.json
//!
//! stdin: path NUL text NUL ... ; stdout: {path: {symbol: [sig, body, doc, tokens,
//! trivial]}}. The symbols memkit names (docs/staleness.md): functions, structs, enums,
//! unions, traits and their items (`Trait.item`), `impl` items as `Type.item`, modules
//! (`mod.item`), consts, statics, type aliases, `macro_rules!`; items of `extern` blocks
//! belong to the scope around them; the first definition of a name wins. Parts are the
//! token trees syn prints, without doc attributes (`///` is `#[doc]`: the doc part),
//! trailing commas and redundant parentheses (around a whole expression, around a
//! primary expression, around a binary operation binding more tightly than the one
//! outside it); comments and formatting never reach syn's tokens.
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::ToTokens;
use std::io::Read;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Expr, ImplItem, Item, TraitItem};

struct Shape {
    sig: String,
    body: String,
    doc: String,
    tokens: Vec<String>,
    trivial: bool,
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let parts: Vec<&str> = input.split('\0').collect();
    let mut out = String::from("{");
    let mut first = true;
    for pair in parts.chunks(2) {
        if pair.len() < 2 {
            break;
        }
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(&json(pair[0]));
        out.push_str(":{");
        let shapes = label(pair[1]);
        for (i, (name, s)) in shapes.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let toks: Vec<String> = s.tokens.iter().map(|t| json(t)).collect();
            out.push_str(&format!(
                "{}:[{},{},{},[{}],{}]",
                json(name),
                json(&s.sig),
                json(&s.body),
                json(&s.doc),
                toks.join(","),
                s.trivial
            ));
        }
        out.push('}');
    }
    out.push('}');
    println!("{}", out);
}

fn json(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn label(text: &str) -> Vec<(String, Shape)> {
    let mut file = match syn::parse_file(text) {
        Ok(f) => f,
        Err(_) => return vec![],
    };
    Parens.visit_file_mut(&mut file);
    let mut found: Vec<(String, Shape)> = vec![];
    items(&file.items, "", &mut found);
    found
}

fn add(found: &mut Vec<(String, Shape)>, name: String, shape: Shape) {
    if !found.iter().any(|(n, _)| *n == name) {
        found.push((name, shape));
    }
}

fn items(list: &[Item], prefix: &str, found: &mut Vec<(String, Shape)>) {
    for item in list {
        match item {
            Item::Impl(imp) => {
                let owner = type_name(&imp.self_ty);
                if owner.is_empty() {
                    continue;
                }
                for it in &imp.items {
                    let (name, shape) = match it {
                        ImplItem::Method(m) => (m.sig.ident.to_string(), shape_of(it, &m.attrs, &m.sig.ident.to_string(), Some(m.block.to_token_stream()), vec![])),
                        ImplItem::Const(c) => (c.ident.to_string(), shape_of(it, &c.attrs, &c.ident.to_string(), Some(c.expr.to_token_stream()), vec![])),
                        ImplItem::Type(t) => (t.ident.to_string(), shape_of(it, &t.attrs, &t.ident.to_string(), Some(t.ty.to_token_stream()), vec![])),
                        _ => continue,
                    };
                    add(found, format!("{}{}.{}", prefix, owner, name), shape);
                }
            }
            Item::ForeignMod(fm) => {
                for it in &fm.items {
                    if let syn::ForeignItem::Fn(f) = it {
                        let n = f.sig.ident.to_string();
                        add(found, format!("{}{}", prefix, n), shape_of(it, &f.attrs, &n, None, vec![]));
                    }
                }
            }
            Item::Fn(f) => {
                let n = f.sig.ident.to_string();
                add(found, format!("{}{}", prefix, n), shape_of(item, &f.attrs, &n, Some(f.block.to_token_stream()), vec![]));
            }
            Item::Struct(s) => {
                let n = s.ident.to_string();
                let docs = s.fields.iter().map(|f| doc_of(&f.attrs)).collect();
                add(found, format!("{}{}", prefix, n), shape_of(item, &s.attrs, &n, Some(s.fields.to_token_stream()), docs));
            }
            Item::Enum(e) => {
                let n = e.ident.to_string();
                let docs = e.variants.iter().map(|v| doc_of(&v.attrs)).collect();
                add(found, format!("{}{}", prefix, n), shape_of(item, &e.attrs, &n, Some(braced(e.variants.to_token_stream())), docs));
            }
            Item::Union(u) => {
                let n = u.ident.to_string();
                let docs = u.fields.named.iter().map(|f| doc_of(&f.attrs)).collect();
                add(found, format!("{}{}", prefix, n), shape_of(item, &u.attrs, &n, Some(u.fields.to_token_stream()), docs));
            }
            Item::Trait(t) => {
                let n = format!("{}{}", prefix, t.ident);
                let docs = t.items.iter().map(|i| doc_of(trait_attrs(i))).collect();
                let mut body = TokenStream::new();
                for i in &t.items {
                    i.to_tokens(&mut body);
                }
                add(found, n.clone(), shape_of(item, &t.attrs, &t.ident.to_string(), Some(braced(body)), docs));
                for it in &t.items {
                    let (name, shape) = match it {
                        TraitItem::Method(m) => {
                            let b = m.default.as_ref().map(|b| b.to_token_stream());
                            (m.sig.ident.to_string(), shape_of(it, &m.attrs, &m.sig.ident.to_string(), b, vec![]))
                        }
                        TraitItem::Const(c) => {
                            let b = c.default.as_ref().map(|(_, e)| e.to_token_stream());
                            (c.ident.to_string(), shape_of(it, &c.attrs, &c.ident.to_string(), b, vec![]))
                        }
                        _ => continue,
                    };
                    add(found, format!("{}.{}", n, name), shape);
                }
            }
            Item::Mod(m) => {
                let n = format!("{}{}", prefix, m.ident);
                let (body, docs) = match &m.content {
                    Some((_, inner)) => {
                        let mut b = TokenStream::new();
                        for i in inner {
                            i.to_tokens(&mut b);
                        }
                        (Some(braced(b)), inner.iter().map(|i| doc_of(item_attrs(i))).collect())
                    }
                    None => (None, vec![]),
                };
                add(found, n.clone(), shape_of(item, &m.attrs, &m.ident.to_string(), body, docs));
                if let Some((_, inner)) = &m.content {
                    items(inner, &format!("{}.", n), found);
                }
            }
            Item::Type(t) => {
                let n = t.ident.to_string();
                add(found, format!("{}{}", prefix, n), shape_of(item, &t.attrs, &n, Some(t.ty.to_token_stream()), vec![]));
            }
            Item::Const(c) => {
                let n = c.ident.to_string();
                if n == "_" {
                    continue;
                }
                add(found, format!("{}{}", prefix, n), shape_of(item, &c.attrs, &n, Some(c.expr.to_token_stream()), vec![]));
            }
            Item::Static(s) => {
                let n = s.ident.to_string();
                add(found, format!("{}{}", prefix, n), shape_of(item, &s.attrs, &n, Some(s.expr.to_token_stream()), vec![]));
            }
            Item::Macro(m) => {
                if let Some(id) = &m.ident {
                    let n = id.to_string();
                    add(found, format!("{}{}", prefix, n), shape_of(item, &m.attrs, &n, None, vec![]));
                }
            }
            _ => {}
        }
    }
}

fn braced(ts: TokenStream) -> TokenStream {
    let g = proc_macro2::Group::new(Delimiter::Brace, ts);
    TokenTree::Group(g).into()
}

fn trait_attrs(i: &TraitItem) -> &[syn::Attribute] {
    match i {
        TraitItem::Method(m) => &m.attrs,
        TraitItem::Const(c) => &c.attrs,
        TraitItem::Type(t) => &t.attrs,
        TraitItem::Macro(m) => &m.attrs,
        _ => &[],
    }
}

fn item_attrs(i: &Item) -> &[syn::Attribute] {
    match i {
        Item::Fn(x) => &x.attrs,
        Item::Struct(x) => &x.attrs,
        Item::Enum(x) => &x.attrs,
        Item::Union(x) => &x.attrs,
        Item::Trait(x) => &x.attrs,
        Item::Mod(x) => &x.attrs,
        Item::Type(x) => &x.attrs,
        Item::Const(x) => &x.attrs,
        Item::Static(x) => &x.attrs,
        Item::Macro(x) => &x.attrs,
        Item::Impl(x) => &x.attrs,
        Item::Use(x) => &x.attrs,
        _ => &[],
    }
}

fn type_name(t: &syn::Type) -> String {
    match t {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default(),
        syn::Type::Reference(r) => type_name(&r.elem),
        syn::Type::Ptr(r) => type_name(&r.elem),
        syn::Type::Paren(p) => type_name(&p.elem),
        syn::Type::Group(g) => type_name(&g.elem),
        _ => String::new(),
    }
}

fn doc_of(attrs: &[syn::Attribute]) -> String {
    let mut lines = vec![];
    for a in attrs {
        if a.path.is_ident("doc") {
            let t = a.tokens.to_string();
            lines.push(t.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    lines.join("\n")
}

/// The tokens of a stream as strings: groups as their delimiters, doc attributes out,
/// a trailing comma before a closing delimiter out, digit separators out.
fn flat(ts: TokenStream, out: &mut Vec<String>) {
    let list: Vec<TokenTree> = ts.into_iter().collect();
    let mut i = 0;
    while i < list.len() {
        match &list[i] {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                let mut j = i + 1;
                if let Some(TokenTree::Punct(b)) = list.get(j) {
                    if b.as_char() == '!' {
                        j += 1;
                    }
                }
                if let Some(TokenTree::Group(g)) = list.get(j) {
                    let first = g.stream().into_iter().next();
                    if g.delimiter() == Delimiter::Bracket
                        && matches!(&first, Some(TokenTree::Ident(id)) if id == "doc")
                    {
                        i = j + 1;
                        continue;
                    }
                }
                out.push("#".into());
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::None => ("", ""),
                };
                if !open.is_empty() {
                    out.push(open.into());
                }
                flat(g.stream(), out);
                if out.last().map(|s| s == ",").unwrap_or(false) && !close.is_empty() {
                    out.pop();
                }
                if !close.is_empty() {
                    out.push(close.into());
                }
            }
            TokenTree::Literal(l) => {
                let s = l.to_string();
                let numeric = s.chars().next().map(|c| c.is_ascii_digit()).unwrap_or(false);
                out.push(if numeric { s.replace('_', "") } else { s });
            }
            t => out.push(t.to_string()),
        }
        i += 1;
    }
}

fn shape_of<T: ToTokens>(
    node: &T,
    attrs: &[syn::Attribute],
    name: &str,
    body: Option<TokenStream>,
    member_docs: Vec<String>,
) -> Shape {
    let mut whole = vec![];
    flat(node.to_token_stream(), &mut whole);
    let mut body_toks = vec![];
    if let Some(b) = body {
        flat(b, &mut body_toks);
    }
    // the signature: the whole item less its name and its body (found as a sub-sequence)
    let mut sig = whole.clone();
    if !body_toks.is_empty() {
        if let Some(at) = find(&sig, &body_toks) {
            sig.drain(at..at + body_toks.len());
        }
    }
    if let Some(at) = sig.iter().position(|t| t == name) {
        sig.remove(at);
    }
    let mut tokens = whole.clone();
    if let Some(at) = tokens.iter().position(|t| t == name) {
        tokens.remove(at);
    }
    let mut doc = doc_of(attrs);
    for d in member_docs {
        if !d.is_empty() {
            doc.push('\x1e');
            doc.push_str(&d);
        }
    }
    let inner = body_toks.iter().filter(|t| *t != "{" && *t != "}").count();
    Shape { sig: sig.join(" "), body: body_toks.join(" "), doc, tokens, trivial: inner < 4 }
}

fn find(hay: &[String], needle: &[String]) -> Option<usize> {
    (0..=hay.len().saturating_sub(needle.len())).rev().find(|&i| hay[i..i + needle.len()] == *needle)
}

// ------------------------------------------------------------ redundant parentheses

struct Parens;

fn prec(op: &BinOp) -> u8 {
    use BinOp::*;
    match op {
        Mul(_) | Div(_) | Rem(_) => 10,
        Add(_) | Sub(_) => 9,
        Shl(_) | Shr(_) => 8,
        BitAnd(_) => 7,
        BitXor(_) => 6,
        BitOr(_) => 5,
        Eq(_) | Lt(_) | Le(_) | Ne(_) | Ge(_) | Gt(_) => 4,
        And(_) => 3,
        Or(_) => 2,
        _ => 1, // compound assignment
    }
}

fn primary(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Path(_) | Expr::Lit(_) | Expr::Call(_) | Expr::MethodCall(_) | Expr::Field(_)
            | Expr::Index(_) | Expr::Paren(_) | Expr::Macro(_) | Expr::Tuple(_) | Expr::Array(_)
    )
}

fn has_struct(e: &Expr) -> bool {
    e.to_token_stream().into_iter().any(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
}

/// Take out the parentheses around `e` (all of them: a whole-expression slot).
fn whole(e: &mut Expr) {
    while let Expr::Paren(p) = e {
        let inner = (*p.expr).clone();
        *e = inner;
    }
}

fn unwrap_if(e: &mut Expr, keep: impl Fn(&Expr) -> bool) {
    while let Expr::Paren(p) = e {
        if keep(&p.expr) {
            return;
        }
        let inner = (*p.expr).clone();
        *e = inner;
    }
}

impl VisitMut for Parens {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        match e {
            Expr::Binary(b) => {
                let outer = prec(&b.op);
                unwrap_if(&mut b.left, |x| match x {
                    Expr::Binary(i) => prec(&i.op) < outer,
                    x => !primary(x),
                });
                unwrap_if(&mut b.right, |x| match x {
                    Expr::Binary(i) => prec(&i.op) <= outer,
                    x => !primary(x),
                });
            }
            Expr::Call(c) => {
                unwrap_if(&mut c.func, |x| !primary(x) || matches!(x, Expr::Field(_)));
                c.args.iter_mut().for_each(whole);
            }
            Expr::MethodCall(m) => {
                unwrap_if(&mut m.receiver, |x| !primary(x));
                m.args.iter_mut().for_each(whole);
            }
            Expr::Field(f) => unwrap_if(&mut f.base, |x| !primary(x)),
            Expr::Index(i) => {
                unwrap_if(&mut i.expr, |x| !primary(x));
                whole(&mut i.index);
            }
            Expr::Unary(u) => unwrap_if(&mut u.expr, |x| !primary(x)),
            Expr::Reference(r) => unwrap_if(&mut r.expr, |x| !primary(x)),
            Expr::Return(r) => {
                if let Some(x) = r.expr.as_mut() {
                    whole(x)
                }
            }
            Expr::If(i) => unwrap_if(&mut i.cond, has_struct),
            Expr::While(w) => unwrap_if(&mut w.cond, has_struct),
            Expr::Match(m) => unwrap_if(&mut m.expr, has_struct),
            Expr::Assign(a) => whole(&mut a.right),
            Expr::AssignOp(a) => whole(&mut a.right),
            Expr::Array(a) => a.elems.iter_mut().for_each(whole),
            Expr::Struct(s) => s.fields.iter_mut().for_each(|f| whole(&mut f.expr)),
            Expr::Paren(p) => whole(&mut p.expr),
            _ => {}
        }
    }
    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        syn::visit_mut::visit_local_mut(self, l);
        if let Some((_, init)) = l.init.as_mut() {
            whole(init);
        }
    }
    fn visit_stmt_mut(&mut self, s: &mut syn::Stmt) {
        syn::visit_mut::visit_stmt_mut(self, s);
        match s {
            syn::Stmt::Expr(e) | syn::Stmt::Semi(e, _) => unwrap_if(e, has_struct),
            _ => {}
        }
    }
}
