/**
 * `moment`, as Obsidian exports it: the real library (the `obsidian` package depends on it), with
 * its default English locale. Obsidian sets the locale to the app's language; tests read English.
 */
import momentLib from "moment";

export const moment = momentLib;
