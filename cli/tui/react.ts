/**
 * React for the TUI, with its types (`@types/react`; the npm package ships none).
 *
 * @module
 */
// @ts-types="@types/react"
export { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
