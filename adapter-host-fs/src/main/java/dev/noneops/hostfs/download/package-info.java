/** Verified, size-limited, retried artifact downloads over the JDK HTTP client. */
package dev.noneops.hostfs.download;
