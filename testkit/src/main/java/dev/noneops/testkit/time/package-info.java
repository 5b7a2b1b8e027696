/** Virtual time: a clock whose sleeps advance it at once. */
package dev.noneops.testkit.time;
