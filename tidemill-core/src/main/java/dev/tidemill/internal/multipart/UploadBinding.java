package dev.tidemill.internal.multipart;

import dev.tidemill.Upload;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * Lets the forms mapper's {@code convertValue} carry an {@link Upload} through untouched: it goes
 * into Jackson's token buffer as an embedded object and comes out as the same object, so a record
 * component (or list element) of type {@code Upload} binds like any field. A text field bound to an
 * {@code Upload} is refused (400 through the binder), as is a file bound to anything else.
 */
public final class UploadBinding {
    private UploadBinding() {}

    /** @param forms the URL-encoded forms mapper @return a copy that also binds uploads */
    public static JsonMapper mapper(JsonMapper forms) {
        SimpleModule m = new SimpleModule("tidemill-uploads");
        m.addSerializer(Upload.class, new ValueSerializer<Upload>() {
            @Override
            public void serialize(Upload value, JsonGenerator gen, SerializationContext ctxt) {
                gen.writeEmbeddedObject(value);
            }
        });
        m.addDeserializer(Upload.class, new ValueDeserializer<Upload>() {
            @Override
            public Upload deserialize(JsonParser p, DeserializationContext ctxt) {
                if (p.currentToken() == JsonToken.VALUE_EMBEDDED_OBJECT && p.getEmbeddedObject() instanceof Upload u) return u;
                return (Upload) ctxt.handleUnexpectedToken(Upload.class, p);
            }
        });
        return forms.rebuild().addModule(m).build();
    }
}
