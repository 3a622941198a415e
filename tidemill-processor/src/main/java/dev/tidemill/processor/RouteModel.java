package dev.tidemill.processor;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.ExecutableElement;

/** One route method as the generated code registers it: everything checked, nothing left to decide. */
final class RouteModel {
    /** How the method's value becomes the handler's answer. */
    enum Answer { AS_IS, VOID, STATUS, TEXT, BYTES, JSON, SSE, WEBSOCKET }

    /**
     * A {@code Param} constant of the generated class.
     *
     * @param field its name
     * @param type its declared type, {@code Param<...>}
     * @param init its initializer
     */
    record ParamField(String field, TypeName type, CodeBlock init) {}

    ExecutableElement method;
    String verb;
    String pattern;
    /** The arguments of the call, in order. */
    final List<CodeBlock> arguments = new ArrayList<>();
    final List<ParamField> params = new ArrayList<>();
    /** {@code body}, {@code form} or {@code multipart}, with {@link #bodyType}; null without a body. */
    String bodyDeclaration;
    TypeName bodyType;
    boolean async;
    Answer answer = Answer.AS_IS;
    int status = 200;
    String mediaType;
    /** What {@code returns(status, type)} declares; null for nothing. */
    TypeName returnsType;
    int returnsStatus = 200;
    String produces;
    String mode;
    CodeBlock requirement;
    /** The generated class's RateLimit constant for this route, if any. */
    String rateLimitField;
    String summary;
    String description;
    final List<String> tags = new ArrayList<>();
    String operationId;
    String toolName;
    String toolDescription;
}
