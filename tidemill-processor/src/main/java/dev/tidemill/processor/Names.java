package dev.tidemill.processor;

import com.palantir.javapoet.ClassName;
import java.util.List;

/**
 * The names of Tidemill's types the processor reads and writes. They are names, not classes: the
 * processor does not depend on the core, which the compilation it serves has on its own path.
 */
final class Names {
    static final String ANNOTATIONS = "dev.tidemill.controller.";
    static final String CONTROLLER = ANNOTATIONS + "Controller";
    /** The route annotations, in the order of their HTTP methods' names below. */
    static final List<String> VERBS = List.of("Get", "Post", "Put", "Patch", "Delete");
    static final String PATH = ANNOTATIONS + "PathParam";
    static final String QUERY = ANNOTATIONS + "QueryParam";
    static final String HEADER = ANNOTATIONS + "HeaderParam";
    static final String COOKIE = ANNOTATIONS + "CookieParam";
    static final String BODY = ANNOTATIONS + "Body";
    static final String FORM = ANNOTATIONS + "Form";
    static final String MULTIPART = ANNOTATIONS + "MultipartForm";
    static final List<String> SOURCES = List.of(PATH, QUERY, HEADER, COOKIE, BODY, FORM, MULTIPART);
    static final String MODE = ANNOTATIONS + "Mode";
    static final String PRODUCES = ANNOTATIONS + "Produces";
    static final String STATUS = ANNOTATIONS + "Status";
    static final String RETURNS = ANNOTATIONS + "Returns";
    static final String REQUIRES = ANNOTATIONS + "Requires";
    static final String ANONYMOUS = ANNOTATIONS + "Anonymous";
    static final String RATE_LIMITED = ANNOTATIONS + "RateLimited";
    static final String OPERATION = ANNOTATIONS + "Operation";
    static final String TOOL = ANNOTATIONS + "Tool";
    /** Annotations that mean something only on a route method. */
    static final List<String> METHOD_ONLY = List.of(PRODUCES, STATUS, RETURNS, TOOL);

    static final ClassName PARAM = ClassName.get("dev.tidemill", "Param");
    static final ClassName PARAM_TYPE = ClassName.get("dev.tidemill", "ParamType");
    static final ClassName ROUTES = ClassName.get("dev.tidemill", "Routes");
    static final ClassName HANDLER = ClassName.get("dev.tidemill", "Handler");
    static final ClassName REQUEST_TYPE = ClassName.get("dev.tidemill", "Request");
    static final ClassName RESPONSE = ClassName.get("dev.tidemill", "Response");
    static final ClassName REQUIREMENT = ClassName.get("dev.tidemill", "Requirement");
    static final ClassName RATE_LIMIT = ClassName.get("dev.tidemill", "RateLimit");
    static final ClassName EXECUTION_MODE = ClassName.get("dev.tidemill", "ExecutionMode");
    static final ClassName TOOL_CALL = ClassName.get("dev.tidemill", "ToolCall");
    static final ClassName CONTROLLER_INDEX = ClassName.get("dev.tidemill", "ControllerIndex");
    static final String REQUEST = "dev.tidemill.Request";
    static final String PRINCIPAL = "dev.tidemill.Principal";
    static final String SESSION = "dev.tidemill.Session";
    static final String RESPONSE_NAME = "dev.tidemill.Response";
    static final String HTML = "dev.tidemill.html.Html";
    static final String SSE_HANDLER = "dev.tidemill.Response.SseHandler";
    static final String WEBSOCKET_HANDLER = "dev.tidemill.WebSocketHandler";
    static final String MULTIPART_API = "dev.tidemill.Multipart";
    static final String COMPLETION_STAGE = "java.util.concurrent.CompletionStage";
    static final String OPTIONAL = "java.util.Optional";
    static final String LIST = "java.util.List";
    static final String INDEX_SERVICE = "dev.tidemill.ControllerIndex";

    private Names() {}

    /** @return the annotation's qualified name for a route verb, e.g. {@code ...Get} */
    static String verb(String simple) {
        return ANNOTATIONS + simple;
    }
}
