package dev.tidemill.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeSpec;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * Writes a controller's {@code <Name>Routes}: one {@code Param} constant per declared parameter,
 * and {@code register}, which adds each method as a route of the lambda API that calls the method
 * with typed arguments. The source reads as the DSL a person would write for the same routes.
 */
final class RoutesWriter {
    private RoutesWriter() {}

    static JavaFile write(ControllerModel c) {
        TypeSpec.Builder type = TypeSpec.classBuilder(c.routesName)
                .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
                .addSuperinterface(Names.HANDLER)
                .addOriginatingElement(c.type)
                .addJavadoc("The routes of {@link $T}, written by tidemill-processor from its annotations: do not edit.\n", c.name);
        for (Map.Entry<String, CodeBlock> e : c.rateLimits.entrySet()) {
            type.addField(FieldSpec.builder(Names.RATE_LIMIT, e.getKey(), Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                    .initializer(e.getValue()).build());
        }
        for (RouteModel r : c.routes) {
            for (RouteModel.ParamField p : r.params) {
                type.addField(FieldSpec.builder(p.type(), p.field(), Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                        .initializer(p.init()).build());
            }
        }
        // One handler class per controller, this one, with the route's index picking the method,
        // rather than a lambda per route: each lambda is a class spun and linked when the app
        // registers it, which made 1,000 routes add about 1 s to a cold start (bench controllers).
        type.addField(c.name, "controller", Modifier.PRIVATE, Modifier.FINAL)
                .addField(int.class, "route", Modifier.PRIVATE, Modifier.FINAL)
                .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE)
                        .addParameter(c.name, "controller").addParameter(int.class, "route")
                        .addStatement("this.controller = controller").addStatement("this.route = route").build());
        MethodSpec.Builder register = MethodSpec.methodBuilder("register")
                .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .addParameter(c.name, "controller")
                .addParameter(Names.ROUTES, "routes")
                .addJavadoc("Registers every route of {@code controller} on {@code routes} (the app, or a group).\n\n"
                        + "@param controller the controller the app constructed\n@param routes where the routes go\n");
        for (int i = 0; i < c.routes.size(); i++) register.addStatement("$L", route(c.routes.get(i), i, c.routesName));
        type.addMethod(register.build());
        type.addMethod(handle(c));
        return JavaFile.builder(c.routesName.packageName(), type.build()).skipJavaLangImports(true).indent("    ").build();
    }

    private static CodeBlock route(RouteModel r, int index, ClassName routesName) {
        CodeBlock.Builder b = CodeBlock.builder();
        b.add("routes.$L($S, new $T(controller, $L))", dslVerb(r.verb), r.pattern, routesName, index);
        if (!r.params.isEmpty()) {
            b.add("\n.params($L)", CodeBlock.join(r.params.stream().map(p -> CodeBlock.of("$N", p.field())).toList(), ", "));
        }
        if (r.bodyDeclaration != null) b.add("\n.$L($T.class)", r.bodyDeclaration, r.bodyType);
        if (r.returnsType != null) {
            if (r.returnsStatus == 200) b.add("\n.returns($T.class)", r.returnsType);
            else b.add("\n.returns($L, $T.class)", r.returnsStatus, r.returnsType);
        }
        if (r.produces != null) b.add("\n.produces($S)", r.produces);
        if (r.mode != null) b.add("\n.mode($T.$L)", Names.EXECUTION_MODE, r.mode);
        if (r.summary != null) b.add("\n.summary($S)", r.summary);
        if (r.description != null) b.add("\n.description($S)", r.description);
        if (!r.tags.isEmpty()) b.add("\n.tags($L)", CodeBlock.join(r.tags.stream().map(t -> CodeBlock.of("$S", t)).toList(), ", "));
        if (r.operationId != null) b.add("\n.operationId($S)", r.operationId);
        if (r.requirement != null) b.add("\n.requires($L)", r.requirement);
        if (r.rateLimitField != null) b.add("\n.rateLimit($N)", r.rateLimitField);
        if (r.toolName != null) b.add("\n.tool($S, $S)", r.toolName, r.toolDescription);
        return b.build();
    }

    private static String dslVerb(String verb) {
        return switch (verb) {
            case "GET" -> "get";
            case "POST" -> "post";
            case "PUT" -> "put";
            case "PATCH" -> "patch";
            default -> "delete";
        };
    }

    /** {@code handle}: route {@code route} of those {@code register} adds, in its order. */
    private static MethodSpec handle(ControllerModel c) {
        CodeBlock.Builder cases = CodeBlock.builder().add("return switch (route) {\n$>");
        for (int i = 0; i < c.routes.size(); i++) cases.add("case $L -> $L", i, answer(c.routes.get(i)));
        cases.add("default -> throw new $T(\"no route \" + route);\n$<};\n", IllegalStateException.class);
        return MethodSpec.methodBuilder("handle").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .returns(Object.class).addParameter(Names.REQUEST_TYPE, "request").addException(Exception.class)
                .addJavadoc("Calls the method of route {@code route}, in the order {@link #register} adds them.\n\n"
                        + "@param request the request, its parameters coerced\n@return the method's answer\n"
                        + "@throws Exception what the method threw\n")
                .addCode(cases.build()).build();
    }

    /** One case of the switch: the call, and what turns its value into the answer. */
    private static CodeBlock answer(RouteModel r) {
        CodeBlock call = CodeBlock.of("controller.$N($L)", r.method.getSimpleName().toString(), CodeBlock.join(r.arguments, ", "));
        if (r.answer == RouteModel.Answer.VOID) {
            return r.async ? CodeBlock.of("$L;\n", call) : CodeBlock.of("{\n$>$L;\nyield null;\n$<}\n", call);
        }
        if (r.answer == RouteModel.Answer.STATUS) {
            CodeBlock answer = CodeBlock.of("$T.status($L)", Names.RESPONSE, r.status);
            return r.async ? CodeBlock.of("$L.thenApply(done -> $L);\n", call, answer)
                    : CodeBlock.of("{\n$>$L;\nyield $L;\n$<}\n", call, answer);
        }
        if (r.answer == RouteModel.Answer.AS_IS) return CodeBlock.of("$L;\n", call);
        if (r.async) return CodeBlock.of("$L.thenApply(value -> $L);\n", call, wrap(r, CodeBlock.of("value")));
        return CodeBlock.of("$L;\n", wrap(r, call));
    }

    private static CodeBlock wrap(RouteModel r, CodeBlock value) {
        return switch (r.answer) {
            case TEXT -> CodeBlock.of("$T.status($L).bytes($L.getBytes($T.UTF_8), $S)", Names.RESPONSE, r.status, value,
                    StandardCharsets.class, r.mediaType);
            case BYTES -> CodeBlock.of("$T.status($L).bytes($L, $S)", Names.RESPONSE, r.status, value, r.mediaType);
            case JSON -> CodeBlock.of("$T.status($L).json($L)", Names.RESPONSE, r.status, value);
            case SSE -> CodeBlock.of("$T.sse($L)", Names.RESPONSE, value);
            case WEBSOCKET -> CodeBlock.of("$T.webSocket($L)", Names.RESPONSE, value);
            default -> value;
        };
    }

    /** @return the index class for a set of controllers */
    static JavaFile index(ClassName index, java.util.List<ClassName> controllers, java.util.List<javax.lang.model.element.Element> origins) {
        ClassName list = ClassName.get("java.util", "List");
        TypeSpec.Builder type = TypeSpec.classBuilder(index)
                .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
                .addSuperinterface(Names.CONTROLLER_INDEX)
                .addJavadoc("This module's controllers, written by tidemill-processor: do not edit. Found by "
                        + "{@code Tidemill.controllers(...)} as a service.\n");
        for (javax.lang.model.element.Element e : origins) type.addOriginatingElement(e);
        type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PUBLIC)
                .addJavadoc("Called by the service loader.\n").build());
        CodeBlock classes = CodeBlock.join(controllers.stream().map(c -> CodeBlock.of("$T.class", c)).toList(), ",\n");
        type.addMethod(MethodSpec.methodBuilder("controllers").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .returns(com.palantir.javapoet.ParameterizedTypeName.get(list, com.palantir.javapoet.ParameterizedTypeName.get(
                        ClassName.get(Class.class), com.palantir.javapoet.WildcardTypeName.subtypeOf(Object.class))))
                .addStatement("return $T.of(\n$>$L$<)", list, classes).build());
        MethodSpec.Builder register = MethodSpec.methodBuilder("register").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .returns(boolean.class).addParameter(Object.class, "controller").addParameter(Names.ROUTES, "routes");
        for (ClassName c : controllers) {
            register.beginControlFlow("if (controller instanceof $T)", c)
                    .addStatement("$T.register(($T) controller, routes)", ControllerModel.routesClass(c), c)
                    .addStatement("return true").endControlFlow();
        }
        register.addStatement("return false");
        type.addMethod(register.build());
        return JavaFile.builder(index.packageName(), type.build()).skipJavaLangImports(true).indent("    ").build();
    }
}
