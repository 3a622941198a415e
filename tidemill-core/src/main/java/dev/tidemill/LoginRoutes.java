package dev.tidemill;

/** The sign-in routes an app with {@link OidcLogin} serves itself. */
final class LoginRoutes {
    private LoginRoutes() {}

    /**
     * With {@link OidcLogin}: {@code GET} the sessions' login path, {@code GET} the callback path and
     * {@code POST} the logout path, as anonymous routes (a sign-in needs nobody signed in). They wait
     * on the provider through futures, so they run on the I/O thread.
     *
     * @return the sign-in's flow, or null without one
     */
    static dev.tidemill.internal.auth.OidcFlow register(Tidemill app, Config config) {
        OidcLogin settings = config.auth().login().orElse(null);
        if (settings == null) return null;
        var flow = new dev.tidemill.internal.auth.OidcFlow(settings);
        String loginPath = config.auth().sessions().orElseThrow().loginPath();
        try {
            app.register("GET", loginPath, flow::login, null).requires(Requirement.anonymous()).mode(ExecutionMode.IO);
            app.register("GET", settings.callbackPath(), flow::callback, null).requires(Requirement.anonymous()).mode(ExecutionMode.IO);
            app.register("POST", settings.logoutPath(), flow::logout, null).requires(Requirement.anonymous()).mode(ExecutionMode.IO);
        } catch (IllegalArgumentException e) {
            flow.close();
            throw new IllegalArgumentException(e.getMessage() + "; with OidcLogin the server takes " + loginPath + ", "
                    + settings.callbackPath() + " and POST " + settings.logoutPath() + " itself", e);
        }
        return flow;
    }
}
