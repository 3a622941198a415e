package dev.tidemill.bench;

import java.util.List;

/** Reaches the uploads suite's package-private checks from the loadgen tests. */
public final class UploadsSuiteAccess {
    private UploadsSuiteAccess() {}

    /** @return {@link UploadsSuite#check} */
    public static List<String> check(int port, UploadsSettings.Endpoint e) {
        return UploadsSuite.check(port, e);
    }
}
