package dev.tidemill.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.JavaFileObject;

/**
 * Turns a route method's parameters into the call's arguments and the route's {@code Param}
 * constants: each parameter has exactly one source (an annotation, or a type Tidemill hands over),
 * and each path variable exactly one parameter.
 */
final class ParamReader {
    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    private static final ClassName OPTIONAL = ClassName.get("java.util", "Optional");
    private static final ClassName LIST = ClassName.get("java.util", "List");

    private final Annotations annotations;
    private final Types types;
    private final Elements elements;
    private final Problems problems;

    ParamReader(Annotations annotations, Types types, Elements elements, Problems problems) {
        this.annotations = annotations;
        this.types = types;
        this.elements = elements;
        this.problems = problems;
    }

    /** What the method's parameters need beyond the arguments: the caller, and blocking part reads. */
    static final class Needs {
        VariableElement principal;
        VariableElement multipart;
        final Set<String> boundVariables = new HashSet<>();
    }

    /**
     * @param route filled with arguments, params and the body
     * @param variables the pattern's variables ({@code *} first for a catch-all)
     * @param fieldPrefix the prefix of this method's Param constants, e.g. {@code GET_ITEM}
     */
    Needs read(RouteModel route, List<String> variables, String fieldPrefix, UnaryOperator<String> uniqueField) {
        Needs needs = new Needs();
        Set<String> names = new HashSet<>();
        for (VariableElement p : route.method.getParameters()) {
            List<String> sources = Annotations.tidemillOn(p).stream().filter(Names.SOURCES::contains).toList();
            if (sources.size() > 1) {
                problems.error(p, "parameter " + p.getSimpleName() + " has " + sources.size() + " sources ("
                        + String.join(", ", sources.stream().map(s -> "@" + s.substring(Names.ANNOTATIONS.length())).toList())
                        + "): keep one");
                continue;
            }
            if (sources.isEmpty()) {
                CodeBlock given = given(p, needs);
                if (given != null) route.arguments.add(given);
                continue;
            }
            String source = sources.get(0);
            AnnotationMirror a = Annotations.find(p, source);
            if (source.equals(Names.BODY) || source.equals(Names.FORM) || source.equals(Names.MULTIPART)) {
                body(route, p, a, source);
                continue;
            }
            String name = annotations.string(a, "value");
            String location = switch (source.substring(Names.ANNOTATIONS.length())) {
                case "PathParam" -> "path";
                case "QueryParam" -> "query";
                case "HeaderParam" -> "header";
                default -> "cookie";
            };
            if (name.isEmpty()) {
                if (nameNotInClassFile(p)) {
                    ExecutableElement m = (ExecutableElement) p.getEnclosingElement();
                    problems.error(p, a, "the name of parameter " + (m.getParameters().indexOf(p) + 1) + " of "
                            + m.getEnclosingElement().getSimpleName() + "." + m.getSimpleName() + " is not in its class file, which is what "
                            + "the processor reads when a build hands it a controller it does not recompile (Gradle's incremental "
                            + "compile): compile with -parameters, or write the name, @" + source.substring(Names.ANNOTATIONS.length())
                            + "(\"name\")");
                    continue;
                }
                name = p.getSimpleName().toString();
            }
            String key = location + ":" + (location.equals("header") ? name.toLowerCase(Locale.ROOT) : name);
            if (!names.add(key)) {
                problems.error(p, a, location + " parameter \"" + name + "\" is taken twice: take it once");
                continue;
            }
            if (location.equals("header") && !name.matches(TOKEN)) {
                problems.error(p, a, "\"" + name + "\" is not a header name: write the header as sent, e.g. X-Request-Id");
                continue;
            }
            if (location.equals("cookie") && !name.matches(TOKEN)) {
                problems.error(p, a, "\"" + name + "\" is not a cookie name (a token: no spaces, separators or '='): "
                        + "write the name as the Set-Cookie that sets it does, e.g. session_id");
                continue;
            }
            if (location.equals("path")) {
                int at = variables.indexOf(name);
                if (at < 0) at = variables.indexOf("*" + name);
                if (at < 0) {
                    problems.error(p, a, "@PathParam \"" + name + "\" names no {" + name + "} in " + route.pattern
                            + ": add it to the path, or take it with @QueryParam");
                    continue;
                }
                needs.boundVariables.add(variables.get(at));
            }
            String defaultText = location.equals("path") ? Annotations.UNSET : annotations.string(a, "defaultValue");
            param(route, p, a, location, name, defaultText, fieldPrefix, uniqueField);
        }
        return needs;
    }

    private void param(RouteModel route, VariableElement p, AnnotationMirror a, String location, String name,
            String defaultText, String fieldPrefix, UnaryOperator<String> uniqueField) {
        TypeMirror type = p.asType();
        String wrapper = wrapper(type);
        TypeMirror element = wrapper == null ? type : argument(type);
        ParamKind kind = element == null ? null : ParamKind.of(element, types);
        String sourceName = "@" + switch (location) {
            case "path" -> "PathParam";
            case "query" -> "QueryParam";
            case "header" -> "HeaderParam";
            default -> "CookieParam";
        };
        if (kind == null || (wrapper != null && location.equals("path"))
                || (Names.LIST.equals(wrapper) && !location.equals("query"))) {
            String why = wrapper != null && location.equals("path") ? "a path variable is always there: take the value itself"
                    : Names.LIST.equals(wrapper) && !location.equals("query") ? "only a query key repeats: take one value, or Optional"
                    : "take one of " + ParamKind.SUPPORTED + (location.equals("query") ? ", an Optional or a List of one" : "");
            problems.error(p, a, sourceName + " " + p.getSimpleName() + " has type " + type + ", which Tidemill cannot coerce: " + why);
            return;
        }
        if (location.equals("path") && route.pattern.contains("{*" + name + "}") && !kind.boxed().toString().equals("java.lang.String")) {
            problems.error(p, a, "the catch-all {*" + name + "} is the rest of the path: take it as a String");
            return;
        }
        boolean hasDefault = !defaultText.equals(Annotations.UNSET);
        if (hasDefault && wrapper != null) {
            problems.error(p, a, sourceName + " " + p.getSimpleName() + " is " + (Names.LIST.equals(wrapper) ? "a List, empty" : "an Optional, empty")
                    + " when absent, so it takes no defaultValue: remove it, or take the plain type");
            return;
        }
        CodeBlock init = CodeBlock.of("$T.$L($S, $L)", Names.PARAM, location.equals("query") && Names.LIST.equals(wrapper) ? "queryList" : location,
                name, kind.paramType());
        TypeName valueType = kind.boxed();
        if (Names.OPTIONAL.equals(wrapper)) {
            init = CodeBlock.of("$L.optional()", init);
            valueType = ParameterizedTypeName.get(OPTIONAL, valueType);
        } else if (Names.LIST.equals(wrapper)) {
            valueType = ParameterizedTypeName.get(LIST, valueType);
        } else if (hasDefault) {
            CodeBlock literal = kind.literal(defaultText, msg -> problems.error(p, a, sourceName + " " + p.getSimpleName() + ": " + msg));
            if (literal == null) return;
            init = CodeBlock.of("$L.withDefault($L)", init, literal);
        }
        String field = uniqueField.apply(fieldPrefix + "_" + constantCase(p.getSimpleName().toString()));
        route.params.add(new RouteModel.ParamField(field, ParameterizedTypeName.get(Names.PARAM, valueType), init));
        route.arguments.add(CodeBlock.of("request.param($N)", field));
    }

    private void body(RouteModel route, VariableElement p, AnnotationMirror a, String source) {
        String simple = "@" + source.substring(Names.ANNOTATIONS.length());
        if (route.bodyDeclaration != null) {
            problems.error(p, a, "a request has one body, and " + route.method.getSimpleName()
                    + " takes two: keep one, and put what else it needs in that record");
            return;
        }
        if (route.verb.equals("GET")) {
            problems.error(p, a, "a GET request carries no body: use @Post, @Put or @Patch, or take its inputs as @QueryParam");
            return;
        }
        TypeMirror t = p.asType();
        boolean bean = t.getKind() == TypeKind.DECLARED
                && (((DeclaredType) t).asElement().getKind() == ElementKind.CLASS || ((DeclaredType) t).asElement().getKind() == ElementKind.RECORD)
                && ((DeclaredType) t).getTypeArguments().isEmpty()
                && !t.toString().startsWith("java.");
        if (!bean) {
            problems.error(p, a, simple + " " + p.getSimpleName() + " has type " + t + ": a body binds to a record or bean of yours"
                    + " (no generics, strings or collections): wrap it in a record");
            return;
        }
        route.bodyDeclaration = switch (simple) {
            case "@Body" -> "body";
            case "@Form" -> "form";
            default -> "multipart";
        };
        route.bodyType = ClassName.get((TypeElement) ((DeclaredType) t).asElement());
        route.arguments.add(CodeBlock.of("request.body($T.class)", route.bodyType));
    }

    /** A parameter without a source annotation: one of the types Tidemill hands over, else an error. */
    private CodeBlock given(VariableElement p, ParamReader.Needs needs) {
        TypeMirror t = p.asType();
        String name = ParamKind.erasure(t, types);
        String inner = Names.OPTIONAL.equals(name) && argument(t) != null ? ParamKind.erasure(argument(t), types) : null;
        if (name.equals(Names.REQUEST)) return CodeBlock.of("request");
        if (name.equals(Names.PRINCIPAL)) {
            needs.principal = p;
            return CodeBlock.of("request.principal().orElse(null)");
        }
        if (Names.PRINCIPAL.equals(inner)) {
            needs.principal = p;
            return CodeBlock.of("request.principal()");
        }
        if (name.equals(Names.SESSION)) return CodeBlock.of("request.session().orElse(null)");
        if (Names.SESSION.equals(inner)) return CodeBlock.of("request.session()");
        if ("dev.tidemill.ToolCall".equals(inner)) return CodeBlock.of("$T.of(request)", Names.TOOL_CALL);
        if (name.equals(Names.MULTIPART_API)) {
            needs.multipart = p;
            return CodeBlock.of("request.multipart()");
        }
        problems.error(p, "parameter " + p.getSimpleName() + " has no source: annotate it @PathParam, @QueryParam, @HeaderParam, "
                + "@CookieParam, @Body, @Form or @MultipartForm, or take Request, Principal, Session, Multipart or Optional<ToolCall>");
        return null;
    }

    /**
     * @return whether the parameter's name is javac's stand-in ({@code arg0}, {@code arg1}...) for one
     *     its class file does not hold: the method was read from a class compiled without {@code -parameters}
     */
    private boolean nameNotInClassFile(VariableElement p) {
        ExecutableElement m = (ExecutableElement) p.getEnclosingElement();
        if (!p.getSimpleName().contentEquals("arg" + m.getParameters().indexOf(p))) return false;
        try {
            JavaFileObject f = elements.getFileObjectOf(m);
            return f != null && f.getKind() == JavaFileObject.Kind.CLASS;
        } catch (UnsupportedOperationException e) {
            return false; // a compiler that cannot tell where an element came from
        }
    }

    /** @return {@code java.util.Optional} or {@code java.util.List} when the type is one, else null */
    private String wrapper(TypeMirror t) {
        if (t.getKind() != TypeKind.DECLARED) return null;
        String n = ParamKind.erasure(t, types);
        return n.equals(Names.OPTIONAL) || n.equals(Names.LIST) ? n : null;
    }

    private static TypeMirror argument(TypeMirror t) {
        List<? extends TypeMirror> args = ((DeclaredType) t).getTypeArguments();
        return args.size() == 1 && args.get(0).getKind() == TypeKind.DECLARED ? args.get(0) : null;
    }

    static String constantCase(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
    }
}
