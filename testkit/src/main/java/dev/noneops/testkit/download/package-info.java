/** The in-memory artifact server, the download port over it, and a builder of real tar.gz content. */
package dev.noneops.testkit.download;
