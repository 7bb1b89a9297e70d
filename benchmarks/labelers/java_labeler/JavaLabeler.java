// Labels Java declarations with JavaParser (Debian's libjavaparser-java), a parser
// independent of memkit's tree-sitter grammar.
//
//     javac -cp /usr/share/java/javaparser-core.jar -d OUT JavaLabeler.java
//     java -cp OUT:/usr/share/java/javaparser-core.jar JavaLabeler < files > shapes.json
//
// stdin: path NUL text NUL ... ; stdout: {path: {symbol: [sig, body, doc, tokens,
// trivial]}}. The symbols memkit names (docs/staleness.md): classes, interfaces, enums,
// annotation types, methods and constructors (`A.m`, `A.A`), nested types (`A.B`;
// JavaParser 3.16 predates records: a file with one does not parse and is left out); the first definition of a name wins (the first overload). Parts are printed
// by JavaParser's printer without comments, after redundant parentheses are taken out
// (around a whole expression, around a primary expression, around a binary operation
// binding more tightly than the one outside it): formatting never counts. Docs are the
// comments JavaParser attaches to a declaration (not across a blank line), then those
// of each member of a type.
import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.*;
import com.github.javaparser.ast.comments.Comment;
import com.github.javaparser.ast.expr.*;
import com.github.javaparser.ast.stmt.*;
import com.github.javaparser.printer.PrettyPrinterConfiguration;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.regex.*;

public class JavaLabeler {
    static final PrettyPrinterConfiguration PRINT =
            new PrettyPrinterConfiguration().setPrintComments(false).setPrintJavadoc(false);
    static final Pattern TOKEN = Pattern.compile(
            "\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|[\\p{L}_$][\\p{L}\\p{N}_$]*|[0-9][0-9a-zA-Z_.]*|>>>=|<<=|>>=|>>>|->|::|\\+\\+|--|&&|\\|\\||[=!<>+\\-*/%&|^]=|\\S");

    public static void main(String[] args) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.in.transferTo(buf);
        String[] parts = buf.toString(StandardCharsets.UTF_8).split("\0", -1);
        ParserConfiguration conf = new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_14)
                .setDoNotAssignCommentsPrecedingEmptyLines(true);
        JavaParser parser = new JavaParser(conf);
        StringBuilder out = new StringBuilder("{");
        boolean first = true;
        for (int i = 0; i + 1 < parts.length; i += 2) {
            if (!first) out.append(',');
            first = false;
            out.append(json(parts[i])).append(":{");
            Map<String, String[]> shapes = new LinkedHashMap<>();
            try {
                ParseResult<CompilationUnit> r = parser.parse(parts[i + 1]);
                if (r.isSuccessful() && r.getResult().isPresent()) {
                    CompilationUnit cu = r.getResult().get();
                    unparen(cu);
                    for (TypeDeclaration<?> t : cu.getTypes()) type(t, "", shapes);
                }
            } catch (Throwable e) {
                shapes.clear();
            }
            boolean f2 = true;
            for (Map.Entry<String, String[]> e : shapes.entrySet()) {
                if (!f2) out.append(',');
                f2 = false;
                String[] s = e.getValue();
                StringBuilder toks = new StringBuilder();
                for (String t : tokens(s[3])) {
                    if (toks.length() > 0) toks.append(',');
                    toks.append(json(t));
                }
                out.append(json(e.getKey())).append(":[").append(json(s[0])).append(',')
                        .append(json(s[1])).append(',').append(json(s[2])).append(",[")
                        .append(toks).append("],").append(s[4]).append(']');
            }
            out.append('}');
        }
        out.append('}');
        System.out.println(out);
    }

    static String json(String s) {
        StringBuilder o = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"') o.append("\\\"");
            else if (c == '\\') o.append("\\\\");
            else if (c < 0x20) o.append(String.format("\\u%04x", (int) c));
            else o.append(c);
        }
        return o.append('"').toString();
    }

    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            String t = m.group();
            if (Character.isDigit(t.charAt(0))) t = t.replace("_", "");
            if ((t.equals(")") || t.equals("]") || t.equals("}")) && !out.isEmpty()
                    && out.get(out.size() - 1).equals(",")) out.remove(out.size() - 1);
            out.add(t);
        }
        return out;
    }

    static String norm(String text) {
        return String.join(" ", tokens(text));
    }

    static String print(Node n) {
        return n == null ? "" : norm(n.toString(PRINT));
    }

    static String doc(Node n) {
        return n.getComment().map(c -> String.join(" ", c.getContent().trim().split("\\s+"))).orElse("");
    }

    static void put(Map<String, String[]> shapes, String name, String sig, String body, String doc,
            String whole, boolean trivial) {
        shapes.putIfAbsent(name, new String[] {sig, body, doc, whole, String.valueOf(trivial)});
    }

    static String list(NodeList<? extends Node> l) {
        StringBuilder b = new StringBuilder();
        for (Node n : l) b.append(print(n)).append(" , ");
        return b.toString();
    }

    static void type(TypeDeclaration<?> t, String prefix, Map<String, String[]> shapes) {
        String name = prefix + t.getNameAsString();
        StringBuilder sig = new StringBuilder(t.getClass().getSimpleName()).append(' ');
        sig.append(list(t.getAnnotations())).append(t.getModifiers().toString()).append(' ');
        if (t instanceof ClassOrInterfaceDeclaration) {
            ClassOrInterfaceDeclaration c = (ClassOrInterfaceDeclaration) t;
            sig.append(c.isInterface() ? "interface " : "class ").append('<').append(list(c.getTypeParameters()))
                    .append("> extends ").append(list(c.getExtendedTypes())).append(" implements ")
                    .append(list(c.getImplementedTypes()));
        } else if (t instanceof EnumDeclaration) {
            sig.append(" implements ").append(list(((EnumDeclaration) t).getImplementedTypes()));
        }
        StringBuilder body = new StringBuilder();
        StringBuilder docs = new StringBuilder(doc(t));
        if (t instanceof EnumDeclaration) {
            for (EnumConstantDeclaration c : ((EnumDeclaration) t).getEntries()) {
                body.append(print(c)).append(" , ");
                String d = doc(c);
                if (!d.isEmpty()) docs.append('\u001e').append(d);
            }
        }
        for (BodyDeclaration<?> m : t.getMembers()) {
            body.append(print(m)).append(' ');
            String d = doc(m);
            if (!d.isEmpty()) docs.append('\u001e').append(d);
        }
        String whole = print(t).replaceFirst("\\b" + Pattern.quote(t.getNameAsString()) + "\\b", "");
        put(shapes, name, sig.toString(), norm(body.toString()), docs.toString(), whole, false);
        for (BodyDeclaration<?> m : t.getMembers()) {
            if (m instanceof TypeDeclaration) {
                type((TypeDeclaration<?>) m, name + ".", shapes);
            } else if (m instanceof CallableDeclaration) {
                CallableDeclaration<?> c = (CallableDeclaration<?>) m;
                String mname = name + "." + c.getNameAsString();
                StringBuilder s = new StringBuilder(c.getClass().getSimpleName()).append(' ');
                s.append(list(c.getAnnotations())).append(c.getModifiers().toString()).append(" <")
                        .append(list(c.getTypeParameters())).append("> ");
                if (c instanceof MethodDeclaration) s.append(print(((MethodDeclaration) c).getType()));
                s.append(" (").append(list(c.getParameters())).append(") throws ")
                        .append(list(c.getThrownExceptions()));
                Node b = null;
                if (c instanceof MethodDeclaration) b = ((MethodDeclaration) c).getBody().orElse(null);
                else if (c instanceof ConstructorDeclaration) b = ((ConstructorDeclaration) c).getBody();
                String bt = print(b);
                int inner = 0;
                for (String tok : tokens(bt)) if (!tok.equals("{") && !tok.equals("}")) inner++;
                String w = print(c).replaceFirst("\\b" + Pattern.quote(c.getNameAsString()) + "\\b", "");
                put(shapes, mname, s.toString(), bt, doc(c), w, inner < 4);
            }
        }
    }

    // ---------------------------------------------------- redundant parentheses

    static int prec(BinaryExpr.Operator op) {
        switch (op) {
            case MULTIPLY: case DIVIDE: case REMAINDER: return 10;
            case PLUS: case MINUS: return 9;
            case LEFT_SHIFT: case SIGNED_RIGHT_SHIFT: case UNSIGNED_RIGHT_SHIFT: return 8;
            case LESS: case GREATER: case LESS_EQUALS: case GREATER_EQUALS: return 7;
            case EQUALS: case NOT_EQUALS: return 6;
            case BINARY_AND: return 5;
            case XOR: return 4;
            case BINARY_OR: return 3;
            case AND: return 2;
            default: return 1;
        }
    }

    static boolean primary(Expression e) {
        return e.isNameExpr() || e.isLiteralExpr() || e.isMethodCallExpr() || e.isFieldAccessExpr()
                || e.isArrayAccessExpr() || e.isEnclosedExpr() || e.isThisExpr();
    }

    static void unparen(CompilationUnit cu) {
        List<EnclosedExpr> all = cu.findAll(EnclosedExpr.class);
        Collections.reverse(all); // innermost first
        for (EnclosedExpr p : all) {
            Expression inner = p.getInner();
            Node parent = p.getParentNode().orElse(null);
            boolean drop = false;
            if (parent == null) continue;
            if (primary(inner) && !(parent instanceof MethodReferenceExpr)) drop = true;
            else if (parent instanceof ReturnStmt || parent instanceof VariableDeclarator
                    || parent instanceof EnclosedExpr || parent instanceof ThrowStmt
                    || parent instanceof ExpressionStmt) drop = true;
            else if (parent instanceof AssignExpr && ((AssignExpr) parent).getValue() == p) drop = true;
            else if (parent instanceof MethodCallExpr && ((MethodCallExpr) parent).getArguments().contains(p)) drop = true;
            else if (parent instanceof ObjectCreationExpr && ((ObjectCreationExpr) parent).getArguments().contains(p)) drop = true;
            else if (parent instanceof BinaryExpr && inner.isBinaryExpr()) {
                BinaryExpr outer = (BinaryExpr) parent;
                int o = prec(outer.getOperator()), i = prec(inner.asBinaryExpr().getOperator());
                drop = i > o || (i == o && outer.getLeft() == p);
            }
            if (drop) p.replace(inner);
        }
    }
}
