package dev.tidemill.tests.noreflection;

import dev.tidemill.Upload;
import dev.tidemill.controller.Body;
import dev.tidemill.controller.Controller;
import dev.tidemill.controller.Get;
import dev.tidemill.controller.MultipartForm;
import dev.tidemill.controller.PathParam;
import dev.tidemill.controller.Post;
import dev.tidemill.controller.QueryParam;
import dev.tidemill.controller.Status;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.util.Optional;

/**
 * A controller compiled by tidemill-processor for the no-reflection checks: a path and query
 * parameters, a validated JSON body, and a multipart form bound to a record with an upload. Its
 * generated {@code NoReflectionControllerRoutes} is what {@link NoReflectionArchTest} reads and
 * {@link NoReflectionUnderLoadTest} drives.
 */
@Controller("/nr")
public final class NoReflectionController {

    /** @param id the path's id @param verbose a query flag @param tag an optional query value */
    public record Item(long id, boolean verbose, String tag) {}

    /** @param name not blank @param quantity 0 to 1000 */
    public record NewItem(@NotBlank String name, @Min(0) @Max(1000) int quantity) {}

    /** @param title not blank @param file the uploaded file */
    public record Attachment(@NotBlank String title, @NotNull Upload file) {}

    /** @param title the form's title @param filename the file's name as sent @param size its length */
    public record Stored(String title, String filename, long size) {}

    /** Echoes the parameters. */
    @Get("/items/{id}")
    public Item item(@PathParam long id, @QueryParam(defaultValue = "false") boolean verbose, @QueryParam Optional<String> tag) {
        return new Item(id, verbose, tag.orElse(null));
    }

    /** Echoes a valid item; an invalid one is answered 422 by the binding. */
    @Post("/items")
    @Status(201)
    public NewItem create(@Body NewItem item) {
        return item;
    }

    /** Describes the upload. */
    @Post("/attachments")
    public Stored attach(@MultipartForm Attachment form) {
        return new Stored(form.title(), form.file().filename().orElse(""), form.file().size());
    }
}
