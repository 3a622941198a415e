package dev.tidemill.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reads one route method into a {@link RouteModel}, or reports on the method what is wrong with
 * it and what to write instead. What the DSL would refuse at start is refused here at compile time.
 */
final class RouteReader {
    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    /** As {@code Route.produces} checks it: {@code type/subtype[; name=value]...}. */
    private static final String MEDIA_TYPE = TOKEN + "/" + TOKEN + "([ \\t]*;[ \\t]*" + TOKEN + "=(" + TOKEN + "|\"([^\"\\\\]|\\\\.)*\"))*";

    private final Annotations annotations;
    private final Types types;
    private final Elements elements;
    private final Problems problems;
    private final ParamReader params;

    RouteReader(Annotations annotations, Types types, Elements elements, Problems problems) {
        this.annotations = annotations;
        this.types = types;
        this.elements = elements;
        this.problems = problems;
        this.params = new ParamReader(annotations, types, elements, problems);
    }

    /**
     * @param controller what the class says for all its methods
     * @param m a method with one route annotation
     * @param verbMirror that annotation
     * @param verb its HTTP method
     * @return the route, or null after reporting errors
     */
    RouteModel read(ControllerModel controller, ExecutableElement m, AnnotationMirror verbMirror, String verb) {
        int before = problems.count();
        RouteModel r = new RouteModel();
        r.method = m;
        r.verb = verb;
        if (!m.getModifiers().contains(Modifier.PUBLIC)) {
            problems.error(m, verbMirror, "route method " + m.getSimpleName() + " is not public: the generated routes call it from "
                    + "their own class; make it public");
        }
        if (m.getModifiers().contains(Modifier.STATIC)) {
            problems.error(m, verbMirror, "route method " + m.getSimpleName() + " is static: a route runs on the controller "
                    + "object the app was given; make it an instance method");
        }
        if (!m.getTypeParameters().isEmpty()) {
            problems.error(m, verbMirror, "route method " + m.getSimpleName() + " is generic: a route's types are fixed; remove <"
                    + m.getTypeParameters() + ">");
        }
        String path = annotations.string(verbMirror, "value");
        if (!path.isEmpty() && !path.startsWith("/")) {
            problems.error(m, verbMirror, "path \"" + path + "\" does not start with '/': write \"/" + path + "\" (or \"\" for the prefix itself)");
            return null;
        }
        r.pattern = controller.prefix + path;
        if (r.pattern.isEmpty()) r.pattern = "/";
        List<String> variables = Patterns.variables(r.pattern, msg -> problems.error(m, verbMirror, msg));
        if (variables == null) return null;
        String prefix = ParamReader.constantCase(m.getSimpleName().toString());
        ParamReader.Needs needs = params.read(r, variables, controller.uniqueFieldPrefix(prefix), controller::uniqueField);
        for (String v : variables) {
            if (!needs.boundVariables.contains(v)) {
                String n = v.startsWith("*") ? v.substring(1) : v;
                problems.error(m, verbMirror, "path variable {" + v + "} of " + r.pattern + " has no parameter: add @PathParam(\""
                        + n + "\") String " + n + " (or another type) to " + m.getSimpleName());
            }
        }
        answer(r, m);
        mode(r, controller, m, needs);
        requirement(r, controller, m, needs);
        docs(r, controller, m);
        tool(r, controller, m);
        AnnotationMirror limited = Annotations.find(m, Names.RATE_LIMITED);
        if (limited != null) r.rateLimitField = controller.rateLimit(m, limited, problems, annotations);
        else r.rateLimitField = controller.classRateLimit;
        return problems.count() == before ? r : null;
    }

    /** The return type: what the handler answers, and what the OpenAPI document says of it. */
    private void answer(RouteModel r, ExecutableElement m) {
        TypeMirror t = m.getReturnType();
        String name = ParamKind.erasure(t, types);
        if (t.getKind() == TypeKind.DECLARED && isStage(t)) {
            r.async = true;
            List<? extends TypeMirror> args = ((DeclaredType) t).getTypeArguments();
            boolean known = args.size() == 1 && (args.get(0).getKind() == TypeKind.DECLARED || args.get(0).getKind() == TypeKind.ARRAY);
            t = known ? args.get(0) : elements.getTypeElement("java.lang.Object").asType();
            name = ParamKind.erasure(t, types);
        } else if (name.equals("java.util.concurrent.Future")) {
            fail(m, "returns a Future, which cannot be awaited without blocking: return a CompletionStage (CompletableFuture)");
            return;
        }
        AnnotationMirror status = Annotations.find(m, Names.STATUS);
        AnnotationMirror produces = Annotations.find(m, Names.PRODUCES);
        AnnotationMirror returns = Annotations.find(m, Names.RETURNS);
        if (status != null) {
            r.status = annotations.integer(status, "value");
            if (r.status < 200 || r.status > 299) problems.error(m, status, "@Status(" + r.status + ") is not a success: write a 2xx status, and throw a ProblemException for the others");
        }
        if (produces != null) {
            r.produces = annotations.string(produces, "value");
            if (!r.produces.matches(MEDIA_TYPE)) problems.error(m, produces, "\"" + r.produces + "\" is not a media type: write type/subtype[; name=value], e.g. text/csv; charset=utf-8");
        }
        boolean value = true;
        if (t.getKind() == TypeKind.VOID || name.equals("java.lang.Void")) {
            r.answer = RouteModel.Answer.VOID;
            if (status == null) r.status = 204;
            r.returnsType = ClassName.get(Void.class);
            value = false;
        } else if (name.equals("java.util.Optional") || name.equals("java.util.stream.Stream")) {
            fail(m, "returns " + name.substring(name.lastIndexOf('.') + 1) + ", which has no answer of its own: return the value "
                    + (name.endsWith("Optional") ? "(throw a ProblemException with 404 when there is none)" : "collected in a List"));
            return;
        } else if (name.equals(Names.RESPONSE_NAME)) {
            r.answer = RouteModel.Answer.AS_IS;
            value = false;
            if (status != null) problems.error(m, status, "a Response carries its own status: set it there, and describe the body with @Returns");
            if (returns != null) {
                r.returnsType = classOf(annotations.type(returns, "value"));
                r.returnsStatus = annotations.integer(returns, "status");
                if (r.returnsStatus < 200 || r.returnsStatus > 299) problems.error(m, returns, "@Returns status " + r.returnsStatus
                        + " is not a success: write the 2xx status of the body it describes (a failure is a ProblemException's problem)");
            }
        } else if (name.equals(Names.SSE_HANDLER) || name.equals(Names.WEBSOCKET_HANDLER)) {
            boolean sse = name.equals(Names.SSE_HANDLER);
            if (r.async) fail(m, "returns a CompletionStage of a " + (sse ? "stream" : "WebSocket") + " handler: return the handler itself");
            r.answer = sse ? RouteModel.Answer.SSE : RouteModel.Answer.WEBSOCKET;
            value = false;
            if (status != null) problems.error(m, status, "a stream or WebSocket answers with its own status: remove @Status");
        } else if (isHtml(t)) {
            value = false;
            if (status != null) problems.error(m, status, "@Status needs a Response for Html: return Response.status(...).html(...)");
        }
        if (returns != null && !name.equals(Names.RESPONSE_NAME)) {
            problems.error(m, returns, "@Returns describes a Response's body; " + m.getSimpleName() + " is described by its return type: remove it");
        }
        boolean text = name.equals("java.lang.String");
        boolean bytes = t.getKind() == TypeKind.ARRAY && ((javax.lang.model.type.ArrayType) t).getComponentType().getKind() == TypeKind.BYTE;
        if (produces != null && !text && !bytes) {
            problems.error(m, produces, "@Produces names the media type of a String or byte[] answer; " + m.getSimpleName()
                    + " returns " + t + ": return a Response to choose its type");
        }
        if (!value) {
            if (r.answer == RouteModel.Answer.VOID && status != null) r.answer = RouteModel.Answer.STATUS;
            if (r.answer == RouteModel.Answer.VOID || r.answer == RouteModel.Answer.STATUS) r.returnsStatus = r.status;
            return;
        }
        r.returnsStatus = r.status;
        if (text || bytes) {
            r.returnsType = text ? ClassName.get(String.class) : ArrayTypeName.of(TypeName.BYTE);
            if (produces != null) r.answer = text ? RouteModel.Answer.TEXT : RouteModel.Answer.BYTES;
            else if (status != null) r.answer = text ? RouteModel.Answer.TEXT : RouteModel.Answer.BYTES;
            r.mediaType = r.produces != null ? r.produces : text ? "text/plain; charset=utf-8" : "application/octet-stream";
        } else {
            // A class literal erases type arguments: List<Item> would be described as an array of
            // anything. Rather than a schema that is wrong, none; a record holding the list is described.
            boolean generic = t.getKind() == TypeKind.DECLARED && !((DeclaredType) t).getTypeArguments().isEmpty();
            if (!name.equals("java.lang.Object") && !generic) r.returnsType = classOf(t);
            if (status != null) r.answer = RouteModel.Answer.JSON;
        }
    }

    private void fail(ExecutableElement m, String message) {
        problems.error(m, "route method " + m.getSimpleName() + " " + message);
    }

    private boolean isStage(TypeMirror t) {
        TypeElement stage = elements.getTypeElement(Names.COMPLETION_STAGE);
        return stage != null && types.isAssignable(types.erasure(t), types.erasure(stage.asType()));
    }

    private boolean isHtml(TypeMirror t) {
        TypeElement html = elements.getTypeElement(Names.HTML);
        return html != null && t.getKind() == TypeKind.DECLARED && types.isAssignable(t, html.asType());
    }

    /** @return the erased class of a type, boxed when primitive, for a {@code .class} literal */
    private TypeName classOf(TypeMirror t) {
        if (t.getKind().isPrimitive()) return TypeName.get(t).box();
        if (t.getKind() == TypeKind.ARRAY) return TypeName.get(types.erasure(t));
        if (t.getKind() == TypeKind.DECLARED) return ClassName.get((TypeElement) ((DeclaredType) t).asElement());
        return ClassName.get(Object.class);
    }

    private void mode(RouteModel r, ControllerModel c, ExecutableElement m, ParamReader.Needs needs) {
        AnnotationMirror own = Annotations.find(m, Names.MODE);
        AnnotationMirror where = own != null ? own : c.modeMirror;
        r.mode = own != null ? annotations.constant(own, "value") : c.mode;
        if (r.mode == null || r.mode.equals("VIRTUAL")) return;
        boolean interrupts = m.getThrownTypes().stream().anyMatch(t -> types.isAssignable(t,
                elements.getTypeElement("java.lang.InterruptedException").asType()));
        String why = interrupts ? "declares throws InterruptedException, so it blocks"
                : needs.multipart != null ? "reads a Multipart part by part, which blocks" : null;
        if (why != null) {
            problems.error(own != null ? m : c.type, where, m.getSimpleName() + " " + why + ", and mode " + r.mode + " runs it on "
                    + (r.mode.equals("IO") ? "the connection's event loop" : "a worker loop shared with other requests")
                    + ", which a blocked call would stall: use @Mode(ExecutionMode.VIRTUAL)");
        }
    }

    private void requirement(RouteModel r, ControllerModel c, ExecutableElement m, ParamReader.Needs needs) {
        AnnotationMirror requires = Annotations.find(m, Names.REQUIRES);
        AnnotationMirror anonymous = Annotations.find(m, Names.ANONYMOUS);
        if (requires != null && anonymous != null) {
            problems.error(m, anonymous, m.getSimpleName() + " is both @Requires and @Anonymous: keep the one you mean");
            return;
        }
        boolean identifies;
        if (requires != null || anonymous != null) {
            r.requirement = Requirements.code(requires, anonymous, annotations, problems, m);
            identifies = requires != null || annotations.bool(anonymous, "identify");
        } else {
            r.requirement = c.requirement;
            identifies = c.identifies;
        }
        if (needs.principal != null && !identifies) {
            problems.error(needs.principal, "parameter " + needs.principal.getSimpleName() + " is the caller's Principal, but "
                    + m.getSimpleName() + " authenticates nobody: add @Requires (or @Anonymous(identify = true)) to it or its class");
        }
    }

    private void docs(RouteModel r, ControllerModel c, ExecutableElement m) {
        AnnotationMirror op = Annotations.find(m, Names.OPERATION);
        if (op != null) {
            r.summary = nonBlank(annotations.string(op, "summary"));
            r.description = nonBlank(annotations.string(op, "description"));
            r.operationId = nonBlank(annotations.string(op, "operationId"));
            if (r.operationId != null && !r.operationId.matches("[A-Za-z0-9_.-]+")) {
                problems.error(m, op, "operationId \"" + r.operationId + "\" is not letters, digits, '_', '.' and '-': rename it");
            }
            r.tags.addAll(annotations.strings(op, "tags"));
            for (String t : r.tags) {
                if (t.isBlank()) problems.error(m, op, "a tag in @Operation(tags) is blank: name it, or remove it");
            }
        }
        // the class's tags were checked on the class
        for (String t : c.tags) if (!r.tags.contains(t)) r.tags.add(t);
    }

    private void tool(RouteModel r, ControllerModel c, ExecutableElement m) {
        AnnotationMirror tool = Annotations.find(m, Names.TOOL);
        if (tool == null) return;
        r.toolName = annotations.string(tool, "name");
        r.toolDescription = annotations.string(tool, "description");
        if (!r.toolName.matches("[A-Za-z0-9_.-]{1,128}")) {
            problems.error(m, tool, "tool name \"" + r.toolName + "\" is not 1 to 128 of A-Z, a-z, 0-9, '_', '-' and '.': rename it");
        }
        if (r.toolDescription.isBlank()) problems.error(m, tool, "tool " + r.toolName + " has no description: say what it does, for the agent");
        if (r.requirement == null) {
            problems.error(m, tool, "tool " + r.toolName + " has no auth decision: add @Requires(...) or @Anonymous to "
                    + m.getSimpleName() + " or its class (the MCP endpoint refuses a tool nobody decided on)");
        }
        if (r.answer == RouteModel.Answer.SSE || r.answer == RouteModel.Answer.WEBSOCKET) {
            problems.error(m, tool, "a tool answers once; " + m.getSimpleName() + " opens a stream: mark another route as the tool");
        }
    }

    private static String nonBlank(String s) {
        return s.isBlank() ? null : s;
    }

    /** @return the HTTP method of a route annotation's simple name */
    static String verb(String simple) {
        return simple.toUpperCase(Locale.ROOT);
    }

    static List<String> verbsOn(javax.lang.model.element.Element m) {
        List<String> out = new ArrayList<>();
        for (String v : Names.VERBS) if (Annotations.find(m, Names.verb(v)) != null) out.add(v);
        return out;
    }
}
