/**
 * JSON (Jackson 3), body binding and validation (Hibernate Validator), problem+json rendering,
 * request body decoding, and response compression (negotiation, br/zstd/gzip encoders).
 */
package dev.tidemill.internal.codec;
