package dev.tidemill.examples;

import dev.tidemill.controller.Anonymous;
import dev.tidemill.controller.Body;
import dev.tidemill.controller.Controller;
import dev.tidemill.controller.Operation;
import dev.tidemill.controller.Post;
import dev.tidemill.controller.Status;
import dev.tidemill.controller.Tool;

/**
 * The demo's users, written as a controller: {@code POST /users} with a validated JSON body
 * ({@link Demo.NewUser}: 422 per invalid field), answered 201. An MCP tool too.
 */
@Controller("/users")
public final class UsersController {
    /** Called by {@link Demo#create}. */
    public UsersController() {}

    /**
     * @param user the validated body
     * @return the user as created (the demo stores nothing: its id is always 1)
     */
    @Post
    @Status(201)
    @Anonymous
    @Operation(summary = "Create a user", tags = "users")
    @Tool(name = "create_user", description = "Creates a user from a name and an age (0 to 150)")
    public Demo.User create(@Body Demo.NewUser user) {
        return new Demo.User(1, user.name(), user.age());
    }
}
