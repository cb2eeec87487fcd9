import { defineComponent, h, type PropType } from "vue";
import { GloveRender, useGlove, type UseGloveConfig, type UseGloveReturn } from "glove-vue";

/** A page: `useGlove` and `<GloveRender>` with a message slot and a tool-status render prop. */
export const Chat = defineComponent({
  props: {
    config: { type: Object as PropType<UseGloveConfig>, required: true },
    onGlove: { type: Function as PropType<(glove: UseGloveReturn) => void>, default: undefined },
  },
  setup(props) {
    const glove = useGlove(() => props.config);
    props.onGlove?.(glove);
    return () =>
      h(
        GloveRender,
        {
          glove,
          renderToolStatus: ({ entry }) => h("i", `${entry.name}:${entry.status}`),
        },
        {
          message: ({ entry }: { entry: { kind: string; text: string } }) => [
            h("p", { "data-kind": entry.kind }, entry.text),
          ],
        },
      );
  },
});
