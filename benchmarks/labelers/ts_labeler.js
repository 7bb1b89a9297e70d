// Labels TypeScript and JavaScript declarations with the TypeScript compiler API.
//
//     node ts_labeler.js < files.json > shapes.json     (NODE_PATH must reach `typescript`)
//
// stdin: [{"path": "src/a.ts", "text": "..."}, ...]; stdout: {path: {symbol: [sig, body,
// doc, tokens, trivial]}}. A parser independent of memkit's tree-sitter grammars names
// the same symbols memkit does (docs/staleness.md): functions, classes and their methods,
// accessors, constructors and fields (`Class.member`), interfaces, type aliases, enums,
// namespaces (`NS.member`), variables; declarations inside if/try/bare blocks belong to
// the scope around them; the first definition of a name wins, overload signatures join
// the implementation's signature. Each part is printed by the compiler's printer after
// every parenthesized expression and type is taken out (the printer's factory puts back
// only the parentheses the grammar needs), comments removed, then re-scanned into tokens
// without semicolons and trailing commas: formatting never counts.
"use strict";
const ts = require("typescript");

const IDENT = /^(?:[\p{L}_$])[\p{L}\p{N}_$]*(?:\.(?:[\p{L}_$])[\p{L}\p{N}_$]*)*$/u;

function stripParens(context) {
  const visit = (node) => {
    if (ts.isParenthesizedExpression(node) || ts.isParenthesizedTypeNode(node)) {
      return visit(node.expression || node.type);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (root) => ts.visitNode(root, visit);
}

const printer = ts.createPrinter({ removeComments: true, omitTrailingSemicolon: true });

function tokens(text, jsx) {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, jsx ? 1 : 0, text);
  const out = [];
  for (let k = scanner.scan(); k !== ts.SyntaxKind.EndOfFileToken; k = scanner.scan()) {
    out.push(scanner.getTokenText());
  }
  return out.filter(
    (t, i) => t !== ";" && !(t === "," && [")", "]", "}", ">"].includes(out[i + 1]))
  );
}

function main() {
  const files = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const result = {};
  for (const { path, text } of files) {
    try {
      result[path] = label(path, text);
    } catch (e) {
      result[path] = {};
    }
  }
  process.stdout.write(JSON.stringify(result));
}

function scriptKind(path) {
  if (/\.tsx$/.test(path)) return ts.ScriptKind.TSX;
  if (/\.(m|c)?ts$/.test(path)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(path)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

function label(path, text) {
  const kind = scriptKind(path);
  const jsx = kind === ts.ScriptKind.TSX || kind === ts.ScriptKind.JSX || kind === ts.ScriptKind.JS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const stripped = ts.transform(source, [stripParens]).transformed[0];
  // the stripped tree keeps `original` links; print a node's stripped twin
  const twin = new Map();
  const index = (n) => {
    const o = ts.getOriginalNode(n);
    if (o && o !== n) twin.set(o, n);
    ts.forEachChild(n, index);
  };
  index(stripped);
  const print = (node) => {
    while (node && (ts.isParenthesizedExpression(node) || ts.isParenthesizedTypeNode(node)))
      node = node.expression || node.type;
    if (!node) return "";
    const n = twin.get(node) || node;
    return tokens(printer.printNode(ts.EmitHint.Unspecified, n, source), jsx).join(" ");
  };
  const found = new Map();
  const exportedByList = new Set();
  for (const st of source.statements) {
    if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) exportedByList.add((el.propertyName || el.name).text);
    }
  }
  const add = (name, node, anchor, owner) => {
    if (!IDENT.test(name)) return false;
    const known = found.get(name);
    if (!known) {
      found.set(name, { node, anchor, overloads: [], owner });
      return true;
    }
    const isOverload = (n) => (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && !n.body;
    const isFunc = (n) => ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n);
    if (isOverload(known.node) && isFunc(node)) {
      if (isOverload(node)) known.overloads.push(node);
      else {
        known.overloads.unshift(known.node);
        known.node = node;
        known.anchor = anchor;
      }
    }
    return false;
  };
  const walk = (statements, prefix) => {
    for (const st of statements) statement(st, prefix);
  };
  const statement = (st, prefix) => {
    if (ts.isIfStatement(st)) {
      statement(st.thenStatement, prefix);
      if (st.elseStatement) statement(st.elseStatement, prefix);
    } else if (ts.isTryStatement(st)) {
      walk(st.tryBlock.statements, prefix);
      if (st.catchClause) walk(st.catchClause.block.statements, prefix);
      if (st.finallyBlock) walk(st.finallyBlock.statements, prefix);
    } else if (ts.isBlock(st)) {
      walk(st.statements, prefix);
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) add(prefix + d.name.text, d, st, prefix === "" ? null : prefix);
      }
    } else if (
      ts.isFunctionDeclaration(st) ||
      ts.isInterfaceDeclaration(st) ||
      ts.isTypeAliasDeclaration(st) ||
      ts.isEnumDeclaration(st)
    ) {
      if (st.name) add(prefix + st.name.text, st, st);
    } else if (ts.isClassDeclaration(st)) {
      if (!st.name) return;
      const name = prefix + st.name.text;
      if (!IDENT.test(name)) return;
      add(name, st, st);
      for (const m of st.members) {
        if (!m.name && !ts.isConstructorDeclaration(m)) continue;
        if (ts.isConstructorDeclaration(m)) {
          add(name + ".constructor", m, m);
        } else if (ts.isIdentifier(m.name)) {
          if (
            ts.isMethodDeclaration(m) ||
            ts.isPropertyDeclaration(m) ||
            ts.isGetAccessorDeclaration(m) ||
            ts.isSetAccessorDeclaration(m)
          )
            add(name + "." + m.name.text, m, m);
        }
      }
    } else if (ts.isModuleDeclaration(st) && st.flags & ts.NodeFlags.GlobalAugmentation) {
      if (st.body && ts.isModuleBlock(st.body)) walk(st.body.statements, prefix); // declare global
    } else if (ts.isModuleDeclaration(st)) {
      if (!ts.isIdentifier(st.name)) return;
      let name = prefix + st.name.text;
      let body = st.body;
      while (body && ts.isModuleDeclaration(body)) {
        name += "." + body.name.text; // namespace A.B { ... }
        body = body.body;
      }
      if (!IDENT.test(name)) return;
      add(name, st, st);
      if (body && ts.isModuleBlock(body)) walk(body.statements, name + ".");
    }
  };
  walk(source.statements, "");
  const out = {};
  for (const [name, { node, anchor, overloads }] of found) {
    out[name] = shape(name, node, anchor, overloads, exportedByList.has(name), print, text);
  }
  return out;
}

function mods(node) {
  return (ts.canHaveModifiers(node) ? ts.getModifiers(node) || [] : []).map((m) => ts.tokenToString(m.kind));
}

function decos(node, print) {
  return (ts.canHaveDecorators(node) ? ts.getDecorators(node) || [] : []).map(print);
}

function isFn(n) {
  return n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n));
}

function unparen(n) {
  while (n && ts.isParenthesizedExpression(n)) n = n.expression;
  return n;
}

function fnSig(fn, print) {
  return [
    mods(fn).join(" "),
    fn.asteriskToken ? "*" : "",
    fn.questionToken ? "?" : "",
    "<" + (fn.typeParameters || []).map(print).join(",") + ">",
    "(" + fn.parameters.map(print).join(",") + ")",
    ":" + print(fn.type),
  ].join(" ");
}

function shape(name, node, anchor, overloads, listed, print, text) {
  let sig = [];
  let body = "";
  const outer = anchor !== node ? [...mods(anchor), ...decos(anchor, print)] : [];
  if (ts.isVariableDeclaration(node)) {
    const init = unparen(node.initializer);
    const keyword = node.parent.flags & ts.NodeFlags.Const ? "const" : node.parent.flags & ts.NodeFlags.Let ? "let" : "var";
    sig.push("var", keyword, outer.join(" "), node.exclamationToken ? "!" : "", ":" + print(node.type));
    if (isFn(init)) {
      sig.push(fnSig(init, print));
      body = print(init.body);
    } else body = print(init);
  } else if (ts.isPropertyDeclaration(node)) {
    const init = unparen(node.initializer);
    sig.push("prop", mods(node).join(" "), decos(node, print).join(" "), node.questionToken ? "?" : "", node.exclamationToken ? "!" : "", ":" + print(node.type));
    if (isFn(init)) {
      sig.push(fnSig(init, print));
      body = print(init.body);
    } else body = print(init);
  } else if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
    const kind = ts.isGetAccessorDeclaration(node) ? "get" : ts.isSetAccessorDeclaration(node) ? "set" : "fn";
    sig.push(kind, decos(node, print).join(" "), fnSig(node, print));
    for (const o of overloads) sig.push("overload", decos(o, print).join(" "), fnSig(o, print));
    body = node.body ? print(node.body) : "";
  } else if (ts.isClassDeclaration(node)) {
    sig.push("class", decos(node, print).join(" "), mods(node).join(" "), "<" + (node.typeParameters || []).map(print).join(",") + ">", (node.heritageClauses || []).map(print).join(" "));
    body = node.members.map(print).join(" ");
  } else if (ts.isInterfaceDeclaration(node)) {
    sig.push("interface", mods(node).join(" "), "<" + (node.typeParameters || []).map(print).join(",") + ">", (node.heritageClauses || []).map(print).join(" "));
    body = node.members.map(print).join(" ");
  } else if (ts.isTypeAliasDeclaration(node)) {
    sig.push("type", mods(node).join(" "), "<" + (node.typeParameters || []).map(print).join(",") + ">");
    body = print(node.type);
  } else if (ts.isEnumDeclaration(node)) {
    sig.push("enum", mods(node).join(" "));
    body = node.members.map(print).join(" ");
  } else if (ts.isModuleDeclaration(node)) {
    sig.push("namespace", mods(node).join(" "));
    let b = node.body;
    while (b && ts.isModuleDeclaration(b)) b = b.body;
    body = b ? print(b) : "";
  }
  sig.push(outer.join(" "));
  if (listed) sig.push("export-listed");
  const doc = docs(node, anchor, text);
  const whole = tokens(print(node), false);
  const at = whole.indexOf(name.split(".").pop());
  if (at >= 0) whole.splice(at, 1);
  const inner = body.split(" ").filter((t) => t && t !== "{" && t !== "}");
  return [sig.join(" "), body, doc, whole, inner.length < 4];
}

// doc comments: the comments right above a declaration (no blank line between), then
// those of each member of a class, interface, object type or enum
function leading(node, text) {
  const ranges = ts.getLeadingCommentRanges(text, node.pos) || [];
  const out = [];
  let next = node.getStart();
  for (let i = ranges.length - 1; i >= 0; i--) {
    const r = ranges[i];
    const gap = text.slice(r.end, next);
    if ((gap.match(/\n/g) || []).length > 1) break;
    out.unshift(text.slice(r.pos, r.end).split(/\s+/).join(" "));
    next = r.pos;
  }
  return out.join("\n");
}

function docs(node, anchor, text) {
  const parts = [leading(anchor, text)];
  let members = [];
  if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isEnumDeclaration(node)) members = node.members;
  else if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type)) members = node.type.members;
  for (const m of members) {
    const d = leading(m, text);
    if (d) parts.push(d);
  }
  return parts.join("\x1e");
}

main();
