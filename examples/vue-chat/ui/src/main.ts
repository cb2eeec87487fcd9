import { createApp } from "vue";
import { App } from "./App.js";
// The web demo's stylesheet: the same classes, so both pages look alike.
import "../../../web-chat/ui/src/styles.css";

createApp(App).mount("#root");
