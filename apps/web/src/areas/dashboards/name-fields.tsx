import { TextInput, Textarea } from '@mantine/core';

/** The name (required) and description fields that open the chart, dashboard and workspace dialogs. */
export function NameFields({
  labels,
  name,
  onName,
  description,
  onDescription,
}: {
  labels: { name: string; description: string };
  name: string;
  onName: (value: string) => void;
  description: string;
  onDescription: (value: string) => void;
}) {
  return (
    <>
      <TextInput
        label={labels.name}
        required
        value={name}
        onChange={(event) => onName(event.currentTarget.value)}
      />
      <Textarea
        label={labels.description}
        value={description}
        autosize
        minRows={1}
        onChange={(event) => onDescription(event.currentTarget.value)}
      />
    </>
  );
}
