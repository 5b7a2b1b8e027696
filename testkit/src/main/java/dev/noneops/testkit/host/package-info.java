/** Host facts a test sets. */
package dev.noneops.testkit.host;
